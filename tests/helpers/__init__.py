"""Helpers shared by the tests: no tests here, and no test module imports another."""
