"""The maps that come with vvw (copies of the course's official maps, and generated ones).

The ``*.xml`` files here are installed as the package data of ``vvw.maps`` (see
``setup.py``): ``--map thetrap`` reads ``thetrap.xml`` with ``importlib.resources``,
from a clone or an installed wheel alike.
"""
