print("ferry benchmarks: not yet written")
