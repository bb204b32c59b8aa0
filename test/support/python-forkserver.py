"""Runs a Python client script, a process per run, forked from one interpreter that has imported its modules.

A Python client's start is mostly its imports (requests: about 0.2 s of CPU), paid again by every case of a
run. Here one interpreter imports what the script imports at its top level, once, with the script's folder
first on sys.path as `python3 script.py` has it; each run is then a fork of it: a process of its own, in a
process group of its own, with the run's environment, arguments, working folder and exit status, its stdin
empty and its stdout and stderr written to a file, which runs the script as `__main__`.

  python3 python-forkserver.py SCRIPT

Requests come on stdin, one JSON object a line:
  {"id": 1, "args": ["recipe"], "env": {...}, "cwd": "/abs", "output": "/abs/file"}
and the answers on stdout, one a line: {"id": 1, "pid": 1234} once forked, then {"id": 1, "exit": 0} (or
128 + the signal that ended it). The server ends when stdin closes, killing the runs still going. Linux only:
fork() without exec is not safe on macOS once its system frameworks are loaded.
"""
import ast
import importlib
import json
import os
import runpy
import selectors
import signal
import sys
import traceback


def imported_by(script):
    """The modules a script imports at its top level (in a try block too), relative imports aside."""
    with open(script, encoding="utf-8") as source:
        tree = ast.parse(source.read(), script)
    names = []
    statements = list(tree.body)
    while statements:
        node = statements.pop(0)
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Try):
            statements += node.body
    return names


def preload(script):
    for name in imported_by(script):
        try:
            importlib.import_module(name)
        except Exception:  # the run meets the same error, and reports it as a process would
            pass


class Forked(BaseException):
    """Raised in a forked run once its script is done, with its exit status: it unwinds the server's frames,
    so that the run ends as `python3 script.py` ends (non-daemon threads waited for, atexit, files flushed)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def run_child(script, job, closing):
    """In the forked process: runs `python3 script args` with the job's environment; returns its exit status."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for fd in closing:
        try:
            os.close(fd)
        except OSError:  # a kqueue is not inherited across fork (macOS)
            pass
    try:
        os.setpgid(0, 0)  # its own group, as the runner starts a client process
        devnull = os.open(os.devnull, os.O_RDONLY)
        output = os.open(job["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(devnull, 0)
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(devnull)
        os.close(output)
        os.environ.clear()
        os.environ.update(job["env"])
        os.chdir(job.get("cwd") or os.getcwd())
        sys.argv = [script] + list(job.get("args", []))
        runpy.run_path(script, run_name="__main__")
        return 0
    except SystemExit as exit:
        if exit.code is None:
            return 0
        if isinstance(exit.code, int):
            return exit.code & 0xFF
        print(exit.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1


def main(running):
    script = os.path.abspath(sys.argv[1])
    sys.path[0] = os.path.dirname(script)
    preload(script)
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, "requests")
    selector.register(woken, selectors.EVENT_READ, "exits")
    pending = b""
    out = sys.stdout

    def answer(message):
        out.write(json.dumps(message) + "\n")
        out.flush()

    def reap():
        while running:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
            run = running.pop(pid, None)
            if run is not None:
                answer({"id": run, "exit": code})

    answer({"ready": True})
    while True:
        for key, _ in selector.select():
            if key.data == "exits":
                try:
                    while os.read(woken, 512):
                        pass
                except BlockingIOError:
                    pass
                reap()
                continue
            chunk = os.read(0, 1 << 16)
            if not chunk:  # the runs' owner is done
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                job = json.loads(line)
                out.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    raise Forked(run_child(script, job, [woken, wake, selector.fileno()]))
                try:
                    os.setpgid(pid, pid)  # as the child does: whichever runs first, the group exists before its kill
                except OSError:
                    pass
                running[pid] = job["id"]
                answer({"id": job["id"], "pid": pid})
            reap()


if __name__ == "__main__":
    running = {}  # pid: the request's id
    try:
        main(running)
    except Forked as forked:
        sys.exit(forked.code)  # the run ends as an interpreter does
    finally:
        if not isinstance(sys.exc_info()[1], (Forked, SystemExit)):
            # The server ends (its owner closed stdin, a broken pipe, a signal): nothing it started outlives it.
            for pid in running:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
