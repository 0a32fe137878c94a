"""Hardware behind small interfaces (`base`), each with a real and a simulated driver, picked by `registry`."""
