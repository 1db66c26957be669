def vadd(a, b, **_):
    """c = a + b in float64."""
    return a + b
