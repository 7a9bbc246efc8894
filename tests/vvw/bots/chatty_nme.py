"""A bot that sends text right after its NME, then waits: ``python chatty_nme.py HOST PORT``
(a student's debugging line sent to the wrong place)."""

import socket
import sys
import time

sock = socket.create_connection((sys.argv[1], int(sys.argv[2])))
sock.sendall(b"NME\x06chatty")
sock.sendall(b"hello server\n")
time.sleep(3600)
