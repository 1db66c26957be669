"""A stand-in worker for tests of the supervision logic: answers, crashes or hangs on request."""
import os
import time

from kopt.worker import serve


def op_echo(message, phase):
    return {"echo": message["value"], "pid": os.getpid()}


def op_crash(message, phase):
    phase("kernel")
    os._exit(7)


def op_hang(message, phase):
    phase(message.get("phase", "kernel"))
    time.sleep(3600)


def op_fail(message, phase):
    raise ValueError("reference exploded")


if __name__ == "__main__":
    serve({"echo": op_echo, "crash": op_crash, "hang": op_hang, "fail": op_fail})
