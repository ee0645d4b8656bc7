import os


def smoke_database_suffix() -> str:
    """BENCH_DATABASE_SUFFIX for a benchmark's smoke run in the suite: "_smoke", and the xdist worker's name, since
    two benchmarks share a database name (request_cpu.py runs on profile_requests.py's) and each drops and creates
    it: on two workers at once one dropped the database under the other."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return os.environ.get("BENCH_DATABASE_SUFFIX", "") + "_smoke" + (f"_{worker}" if worker else "")
