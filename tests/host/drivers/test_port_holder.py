"""A command that cannot get a serial port says in one line who holds it and how to free
it (issue 24 item 3): the keezbord service's port is freed by stopping the service."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from keezbord.host.drivers.port_holder import Holder, PortBusy, busy_message, holders
from keezbord.host.drivers.rfid_base import open_serial


def test_the_service_holding_a_port_is_named_with_the_command_that_frees_it(
    tmp_path: Path,
) -> None:
    # A /proc where pid 4242 (in keezbord.service's cgroup) has the port open.
    dev = tmp_path / "ttyACM0"
    dev.write_text("")
    proc = tmp_path / "proc"
    (proc / "4242/fd").mkdir(parents=True)
    (proc / "4242/fd/7").symlink_to(dev)
    (proc / "4242/cmdline").write_bytes(
        b"/opt/keezbord/bin/python3\0/opt/keezbord/bin/keezbord\0run\0"
    )
    (proc / "4242/cgroup").write_text("0::/system.slice/keezbord.service\n")
    (proc / "self").mkdir()
    found = holders(str(dev), proc)
    assert found == [Holder(4242, "/opt/keezbord/bin/python3 /opt/keezbord/bin/keezbord run",
                            "keezbord.service")]  # fmt: skip
    line = busy_message(str(dev), found)
    assert line == (
        f"{dev} is held by the keezbord service (keezbord.service, pid 4242): stop it first "
        "with `sudo systemctl stop keezbord` (and `sudo systemctl start keezbord` after)"
    )
    assert "\n" not in busy_message(str(dev), [])


def test_a_reader_port_another_process_holds_is_refused_naming_it() -> None:
    pytest.importorskip("serial")
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"import serial, time; s = serial.Serial({path!r}, exclusive=True); "
         "print('held', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    os.close(slave)  # the child holds it now (the pty lives while its master is open)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(PortBusy) as e:
            open_serial(path, 115200, 0.01)
        assert str(e.value).startswith(f"{path} is held by pid {holder.pid} (")
        assert sys.executable in str(e.value)
    finally:
        holder.kill()
        holder.wait()
        os.close(master)
