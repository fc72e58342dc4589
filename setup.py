"""Build hook (everything else is in pyproject.toml): the Pico firmware's source lives in
firmware/ at the top of the repository; a wheel carries a copy as package data,
keezbord/_firmware/, which ``keezbord firmware install`` installs from. An editable install
needs no copy: the command finds firmware/ next to the package."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FIRMWARE_SRC = Path(__file__).resolve().parent / "firmware"


class BuildPyWithFirmware(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        dst = Path(self.build_lib) / "keezbord" / "_firmware"
        self.mkpath(str(dst))
        for f in sorted(FIRMWARE_SRC.glob("*.py")):
            self.copy_file(str(f), str(dst / f.name))


setup(cmdclass={"build_py": BuildPyWithFirmware})
