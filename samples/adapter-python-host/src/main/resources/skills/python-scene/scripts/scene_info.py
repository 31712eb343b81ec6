import os


def main(**params):
    return {
        "objects": HOST.get("scene", []),
        "pid": os.getpid(),
        "main_thread": ON_MAIN_THREAD,
    }
