"""The optional compiled tree walk (``pagesift_ui/page/_cwalk.pyx``; docs/DECISIONS.md, "the
step, ninth pass: the walk compiled"). Everything else about the package is in pyproject.toml.

The extension is optional twice over: without Cython it is not attempted, and a failed
compile (no C compiler, no Python headers) is reported and skipped instead of failing the
install. Either way ``pagesift_ui.page.lxmltree`` walks in Python, with the same output.
(setuptools' own ``Extension(optional=True)`` does not hold in an editable install: a failed
compile failed ``pip install -e .``; hence the command below, MarkupSafe's approach.)
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns a failed compile into a warning on stderr."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any failure of the toolchain: the walk stays Python
            _skipped(error)


def _skipped(error: Exception) -> None:
    print(f"pagesift-ui: the compiled tree walk was not built ({error}); the tree is walked "
          "in Python, with the same results", file=sys.stderr)


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
    )
    return cythonize([walk], compiler_directives={"language_level": 3}, quiet=True)


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
