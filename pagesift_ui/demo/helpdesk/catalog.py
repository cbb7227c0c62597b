"""Helpdesk scenario: the shop's product catalogue on www.shop.localhost.

Several hundred product pages in ten categories, listed 24 to a page with ``?page=N``; sort
links (``?sort=...``) that the server ignores, so they return the first page again, as faceted
shop navigation often does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..kit.context import HostContext, paras
from ..kit.html import Block, Heading, Link, Table, bullets, para
from ..kit.text import Prose, slugify
from .words import CATEGORIES, PRODUCT, REVIEWS, SHOP_INFO, STYLE_WORDS

__all__ = ["Product", "build_catalog"]

PRODUCTS_PER_CATEGORY = 60
PER_PAGE = 24


_INFO_PAGES = (
    ("/about", "Our story", "Hearth & Oak began in 2009 as a market stall selling oak boards."),
    ("/sustainability", "Sustainability", "We use FSC-certified wood and recycled packaging."),
    ("/careers", "Careers", "Join our teams in stores, in our warehouse and in the studio."),
    ("/gift-cards", "Gift cards", "Give them the choice with a Hearth & Oak gift card."),
    ("/privacy-policy", "Privacy policy", "This policy explains how we use your personal data."),
    ("/cookie-policy", "Cookie policy", "We use cookies to make the website work well."),
    ("/terms", "Terms and conditions", "These terms apply to all orders on this website."),
    ("/accessibility", "Accessibility", "We want everyone to be able to use our website."),
)


@dataclass(frozen=True, slots=True)
class Product:
    name: str
    code: int
    category: str
    item: str
    material: str
    style: str
    price_pence: int

    @property
    def path(self) -> str:
        return f"/p/{slugify(self.name)}-{self.code}"

    @property
    def price(self) -> str:
        return f"£{self.price_pence // 100}.{self.price_pence % 100:02d}"


def category_path(category: str) -> str:
    return f"/c/{slugify(category)}/"


def _plan(prose: Prose) -> list[Product]:
    products: list[Product] = []
    code = 100_200
    for category, items in CATEGORIES:
        for _ in range(PRODUCTS_PER_CATEGORY):
            item, materials = prose.pick(items)
            material, style = prose.pick(materials), prose.pick(STYLE_WORDS)
            code += prose.rng.randint(1, 40)
            price = prose.rng.randint(6, 240) * 100 + prose.pick((0, 50, 95, 99))
            products.append(Product(f"{style} {material} {item}", code, category, item, material,
                                    style, price))
    return products


def _product_page(shop: HostContext, prose: Prose, product: Product,
                  siblings: Sequence[Product]) -> None:
    slots = {"item": product.item.lower(), "material": product.material.lower(),
             "style": product.style}
    reviews = [f"{review} \u2014 {prose.person().split()[0]}, {prose.rng.randint(3, 5)} out of 5"
               for review in prose.sample(REVIEWS, prose.rng.randint(0, 3))]
    blocks: list[Block] = [
        para(f"{product.price}"),
        *paras(prose, PRODUCT, 2, **slots),
        Table("Details", ("", ""), (("Material", product.material),
                                    ("Collection", product.style),
                                    ("Product code", str(product.code)))),
        Heading("Delivery and returns"),
        para("Free UK delivery on orders over £50. Free returns within 30 days."),
    ]
    if reviews:
        blocks += [Heading("Reviews"), bullets(*reviews)]
    blocks += [Heading("You may also like"),
               bullets(*(Link(other.name, other.path) for other in siblings))]
    crumbs = (Link(product.category, category_path(product.category)),)
    shop.add(product.path, product.name, blocks, crumbs=crumbs,
             description=f"{product.name} from the {product.style} collection.")


def _listing_pages(shop: HostContext, category: str, products: Sequence[Product]) -> None:
    base = category_path(category)
    chunks = [products[i:i + PER_PAGE] for i in range(0, len(products), PER_PAGE)]
    for number, chunk in enumerate(chunks, start=1):
        sort = para("Sort by: ", Link("Price, low to high", f"{base}?sort=price-asc"), " ",
                    Link("Newest", f"{base}?sort=newest"), " ",
                    Link("Best sellers", f"{base}?sort=popular"))
        pages = [Link(str(n), base if n == 1 else f"{base}?page={n}")
                 for n in range(1, len(chunks) + 1) if n != number]
        if number < len(chunks):
            pages.append(Link("Next", f"{base}?page={number + 1}"))
        blocks: list[Block] = [
            sort,
            bullets(*((Link(p.name, p.path), f" {p.price}") for p in chunk)),
            para("Page: ", *(part for link in pages for part in (link, " "))),
        ]
        target = base if number == 1 else f"{base}?page={number}"
        shop.add(base, category, blocks, target=target)


def _info_pages(shop: HostContext, prose: Prose, products: Sequence[Product]) -> None:
    stores = ("Bath", "Bristol", "Cambridge", "Harrogate", "Norwich", "York")
    shop.add("/stores", "Our stores", [bullets(*(Link(f"Hearth & Oak {town}",
                                                      f"/stores/{slugify(town)}")
                                                 for town in stores))])
    for town in stores:
        shop.add(f"/stores/{slugify(town)}", f"Hearth & Oak {town}", [
            para(f"Our {town} store is open Monday to Saturday, 9am to 6pm, "
                 "and Sunday 10am to 4pm."),
            para("Click and collect orders can be picked up at the service desk."),
        ], crumbs=(Link("Stores", "/stores"),))
    sale = [p for p in products if p.price_pence % 100 == 99][:30]
    shop.add("/sale", "Sale", [para("Up to 40% off selected lines while stocks last."),
                               bullets(*((Link(p.name, p.path), f" now {p.price}") for p in sale))])
    for path, title, text in _INFO_PAGES:
        shop.add(path, title, [para(text), para(prose.paragraph(SHOP_INFO, 3))])


def build_catalog(shop: HostContext) -> list[Product]:
    """Generate the catalogue pages and return the products (in catalogue order)."""
    prose = shop.prose("catalog")
    products = _plan(prose)
    for category, _items in CATEGORIES:
        in_category = [p for p in products if p.category == category]
        for index, product in enumerate(in_category):
            siblings = [in_category[(index + k) % len(in_category)] for k in (1, 2, 3, 4)]
            _product_page(shop, prose, product, siblings)
        _listing_pages(shop, category, in_category)
    _info_pages(shop, prose, products)
    return products
