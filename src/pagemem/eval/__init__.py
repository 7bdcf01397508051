"""Benchmarks: loaders for public data sets and the metrics pagemem reports."""
