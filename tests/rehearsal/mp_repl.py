# The stand-in Pico's raw REPL executor, run by the MicroPython unix port (not CPython:
# mypy leaves it out, pyproject.toml). The Pico's flash (a folder, argv[1]) is mounted as
# "/", as littlefs is on a Pico, and each block of code from stdin (a line with its
# length, then the code) runs in one namespace, as MicroPython's raw REPL runs what
# mpremote sends. After each block: 0x04, the error if any, 0x04 (the raw REPL's
# framing). machine.reset() ends the process with status 42: the stand-in then restarts
# the Pico (its USB port goes away and comes back).
import os
import sys

import vfs

vfs.umount("/")
vfs.mount(vfs.VfsPosix(sys.argv[1]), "/")
os.chdir("/")


class _Machine:
    @staticmethod
    def reset():
        sys.exit(42)

    soft_reset = reset

    @staticmethod
    def unique_id():
        return b"\xe6\x61\x41\x04\x03\x2a\x2b\x21"


sys.modules["machine"] = _Machine
scope = {"__name__": "__main__"}
out = sys.stdout
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    code = sys.stdin.buffer.read(int(line))
    try:
        exec(code, scope)
        out.write("\x04\x04")
    except SystemExit:
        raise
    except BaseException as e:
        out.write("\x04")
        sys.print_exception(e, out)
        out.write("\x04")
