"""The scenario-independent machinery of the demo web; it imports no scenario.

- :mod:`.html`: frozen values that describe a page (links, blocks, site chrome) and the one
  renderer that turns them into HTML;
- :mod:`.site`: the in-memory site model (:class:`~.site.DemoSite`) and the
  :class:`~.site.SiteBuilder` that scenarios fill;
- :mod:`.text`: seeded prose from word banks, so a seed fixes every page's text;
- :mod:`.context`: :class:`~.context.HostContext`, the page factory of one host;
- :mod:`.server`: :class:`~.server.DemoServer`, any site over HTTP on 127.0.0.1.
"""
