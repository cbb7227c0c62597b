"""The optional compiled tree walk (``pagesift_ui/page/_cwalk.pyx``; docs/DECISIONS.md, "the
step, ninth pass: the walk compiled"). Everything else about the package is in pyproject.toml.

The extension is optional twice over: without Cython it is not attempted, and a failed
compile (no C compiler, no Python headers) skips it (``optional=True``) instead of failing
the install. Either way ``pagesift_ui.page.lxmltree`` walks in Python, with the same output.
"""

from setuptools import Extension, setup


def _extensions() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:
        return []
    walk = Extension(
        "pagesift_ui.page._cwalk",
        ["pagesift_ui/page/_cwalk.pyx"],
        # lxml's public C API and the libxml2 headers its wheel carries; nothing is linked
        # against libxml2: the walk reads the fields of lxml's own nodes
        include_dirs=lxml.get_include(),
        optional=True,
    )
    return cythonize([walk], compiler_directives={"language_level": 3}, quiet=True)


setup(ext_modules=_extensions())
