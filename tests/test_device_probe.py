"""The driver probe: started in the background by a GPU command, answered once, the same answer either way."""
import threading

from kopt import device


def test_background_probe_gives_probes_answer(monkeypatch):
    calls = []
    release = threading.Event()

    def slow_probe():
        release.wait(5)
        calls.append(1)
        return None, "no CUDA GPU visible"

    monkeypatch.setattr(device, "_probe", slow_probe)
    monkeypatch.setattr(device, "_probing", None)
    device.probe_in_background()
    device.probe_in_background()  # idempotent: one thread
    release.set()
    assert device.probe() == (None, "no CUDA GPU visible")  # waits for the thread, then asks the (cached) probe
    assert device._probing is not None and not device._probing.is_alive()


def test_prestart_says_whether_a_worker_started(monkeypatch):
    from kopt import worker_prestart

    monkeypatch.setenv("KOPT_PRESTART", "0")
    assert worker_prestart.prestart(["kopt", "run", "task", "k.cu"]) is False
    monkeypatch.setenv("KOPT_PRESTART", "1")
    assert worker_prestart.prestart(["kopt", "check", "k.cu"]) is False  # check needs no GPU worker
