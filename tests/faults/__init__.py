"""The fault suite: every way the web or a file can hurt a crawl, each with a clear error.

``server.FaultServer`` misbehaves on purpose on 127.0.0.1 (one fault per path or virtual
host); ``test_net_faults`` holds the network faults. Each test asserts the specific error
(type, ``kind``, a message fragment), bounded time and memory, and that a crawl meeting the
fault goes on without losing anything it saved before.
"""
