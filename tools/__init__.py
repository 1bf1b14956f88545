"""Scripts for working on this repository (`python tools/NAME.py`): not installed, never imported by the product.

A package so that the tests, and the scripts themselves, can import `tools.recipes` from this checkout by name.
"""
