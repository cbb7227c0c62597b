"""The scenario-independent machinery of the demo web; it imports no scenario.

- :mod:`.html`: frozen values that describe a page (links, blocks, site chrome), the one
  renderer that turns them into HTML, and :func:`~.html.social_links` for footers;
- :mod:`.site`: the in-memory site model (:class:`~.site.DemoSite`) and the
  :class:`~.site.SiteBuilder` that scenarios fill;
- :mod:`.text`: seeded prose from word banks, so a seed fixes every page's text;
- :mod:`.context`: :class:`~.context.HostContext`, the page factory of one host, and
  :func:`~.context.paras`, the one paragraph helper: blocks of body text from a word bank;
- :mod:`.server`: :class:`~.server.DemoServer`, any site over HTTP on 127.0.0.1.
"""
