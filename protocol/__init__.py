"""The course's binary protocol, sans-I/O: the codec and the cells of MAP/UPD.

Shared by the server, the bots and every tool: nothing here reads a socket or a clock.
"""
