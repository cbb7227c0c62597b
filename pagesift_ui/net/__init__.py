"""The only layer that talks to the network: fetcher, policy, robots.txt, loopback servers."""
