"""The optional compiled parts of a step: the tree walk of page extraction (``pagesift_ui/
page/_cwalk.pyx``; docs/DECISIONS.md, "the step, ninth pass: the walk compiled"), the
collector (``collect.py`` as it is, its fields typed by ``collect.pxd``; "the step, tenth
pass"), its white-space collapse (``pagesift_ui/page/_cspace.pyx``; "the step, twelfth pass"),
the UTF-8 check of a page's bytes (``pagesift_ui/page/_cutf8.pyx``; "the step, fourteenth
pass") and the passes over a page's text: the duplicate check's, the relevance's word classes
and the reading by meaning (``pagesift_ui/frontier/_ctext.pyx``; "the step, twelfth pass" to
"fourteenth pass").
Everything else about the package is in pyproject.toml.

The extensions are optional twice over: without Cython they are not attempted, and a failed
compile (no C compiler, no Python headers) is reported and skipped instead of failing the
install. Either way the page is read in Python, with the same output.
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
    print(f"pagesift-ui: the compiled tree walk, collector, white-space collapse, UTF-8 check "
          f"and text passes were not built ({error}); pages are read in Python, with the same "
          f"results",
          file=sys.stderr)


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
    # collect.py compiled as it is, its fields typed by collect.pxd (Cython's pure Python
    # mode): without the build the same module runs as Python
    collect = Extension("pagesift_ui.page.collect", ["pagesift_ui/page/collect.py"])
    # plain C over a str's own buffer, these two: nothing to include or link
    # -ffp-contract=off: no multiply and add fused into one rounding, so the meaning sum is
    # numpy's to the bit on every CPU (``_ctext.text_cosine``); GCC and Clang take the flag
    text = Extension("pagesift_ui.frontier._ctext", ["pagesift_ui/frontier/_ctext.pyx"],
                     extra_compile_args=[] if sys.platform == "win32" else
                     ["-ffp-contract=off"])
    space = Extension("pagesift_ui.page._cspace", ["pagesift_ui/page/_cspace.pyx"])
    utf8 = Extension("pagesift_ui.page._cutf8", ["pagesift_ui/page/_cutf8.pyx"])
    # annotation_typing off: the types are the .pxd's alone, and every annotation keeps its
    # Python meaning (with it on, a parameter annotated ``int`` took True as 1 in a compiled
    # frontier module, and a check that refuses bools passed it; docs/DECISIONS.md, "the
    # step, tenth pass")
    return cythonize([walk, collect, text, space, utf8], quiet=True,
                     compiler_directives={"language_level": 3, "annotation_typing": False})


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
