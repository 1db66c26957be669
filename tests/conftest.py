import pytest


def _gpu_reason():
    from kopt.device import probe

    info, why = probe()
    return None if info else why


def pytest_collection_modifyitems(config, items):
    reason = None
    checked = False
    for item in items:
        if "gpu" in item.keywords:
            if not checked:
                reason, checked = _gpu_reason(), True
            if reason:
                item.add_marker(pytest.mark.skip(reason=f"needs a GPU: {reason}"))


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Each test session compiles into its own cache, and promotes into its own data folder, unless a test
    overrides them."""
    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kopt-cache"))
    monkeypatch.setenv("KOPT_DATA_DIR", str(tmp_path_factory.getbasetemp() / "kopt-data"))
