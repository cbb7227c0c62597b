"""The ``helpdesk`` scenario: Hearth & Oak, a home-goods shop with a separate help centre.

The answers to "refund policy" are a handful of help articles on help.shop.localhost. The
catalogue on www.shop.localhost is far larger, and the footer of every page on both hosts says
"30-day refund policy - see our refund policy": every page hits the query, but only in a
``<footer>``, the furniture a crawler must look past.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.context import HostContext, paras
from ..kit.html import Block, Chrome, Heading, Inline, Link, bullets, para, social_links
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import Prose, Topic, slugify
from .catalog import build_catalog, category_path
from .words import (
    ACCOUNT,
    CATEGORIES,
    DELIVERY,
    GIFT_CARDS,
    ORDERS,
    PAYMENTS,
    PRODUCT_CARE,
    REFUNDS,
    RETURNS,
)

__all__ = ["HELP_HOST", "LESSON", "QUERY", "SETTINGS", "SHOP_HOST", "WATCH", "build_helpdesk"]

SHOP_HOST = "www.shop.localhost"
HELP_HOST = "help.shop.localhost"
QUERY = "refund policy"
DESCRIPTION = (
    "Hearth & Oak: an online shop of about 650 product and listing pages plus a help centre on "
    "its own host. Only eight help articles are about refunds (the refund policy itself, how to "
    "ask for a refund, timelines, sale items, gift cards, faulty items, cancellations), but the "
    "footer of every page says '30-day refund policy - see our refund policy'. Expect a crawl "
    "that treats the footer as furniture, heads for the help centre and stops with "
    "coverage_reached; watch the catalogue pagination and ?sort= duplicates, and robots.txt "
    "blocking /cart, /account/ and /search."
)

#: The stop reason this scenario teaches, and what to look at while it runs.
LESSON = "coverage_reached"
WATCH = (
    "Watch the Coverage and Stale tiles. The help articles give each query term three pieces "
    "of evidence from at least two pages, and Coverage climbs to 100%; from then on three "
    "pages that count toward Stale end it with coverage_reached (the log says so of each; a "
    "page too weak to be evidence leaves Stale as it is). It stops with "
    "5 of the 8 refund articles read: coverage counts evidence per query term, not answers. "
    "The footer's 'refund policy' on every page counts for nothing: it is not main content."
)
#: The seed's rule by itself: with lead forgiveness on (the default, docs/DESIGN.md §11.10)
#: the first coverage_reached verdict is forgiven (a queued link scores as well as one that
#: found an on-topic page) and the crawl stops three pages later with the same articles.
SETTINGS = {"forgive_leads": False}


@dataclass(frozen=True, slots=True)
class _Article:
    """A help article: its title, the word bank of its body text, and an opening sentence."""

    title: str
    topic: Topic
    lead: str = ""
    relevant: bool = False


def _plain(topic: Topic, *titles: str) -> tuple[_Article, ...]:
    return tuple(_Article(title, topic) for title in titles)


def _answer(title: str, lead: str) -> _Article:
    """An article of the answer key: it opens with ``lead`` and its text is about refunds."""
    return _Article(title, REFUNDS, lead, relevant=True)


# The help centre's menu: each category with its articles in menu order.
_MENU: tuple[tuple[str, tuple[_Article, ...]], ...] = (
    ("Orders", _plain(ORDERS, "Track your order", "Change or cancel an order", "Missing items",
                      "Ordering by phone", "Order confirmation emails")),
    ("Delivery", _plain(DELIVERY, "Delivery options and costs", "International delivery",
                        "Click and collect", "Changing your delivery address",
                        "Large item delivery")),
    ("Returns and refunds", (
        _answer("Refund policy", "Our refund policy: if you change your mind, you can return "
                "most items within 30 days for a full refund."),
        _answer("How to request a refund", "You can request a refund from your account or by "
                "returning the item to a store; this page explains each step under our refund "
                "policy."),
        _answer("How long do refunds take?", "Under our refund policy we issue your refund "
                "within five working days of receiving your return."),
        _answer("Refunds for sale and discounted items",
                "Sale items are covered by the same refund policy as full-price items."),
        _answer("Refunds to your original payment method", "Our refund policy is to pay every "
                "refund back to the card or account you paid with."),
        _answer("Faulty or damaged items: repair, replacement or refund", "If an item arrives "
                "faulty or damaged, our refund policy gives you a full refund, a replacement or "
                "a repair."),
        _answer("Refunds when you cancel an order", "If you cancel an order before it is "
                "dispatched, the refund policy is simple: we refund the full amount straight "
                "away."),
        *_plain(RETURNS, "How to return an item", "Returns labels and drop-off points"),
    )),
    ("Gift cards", (
        *_plain(GIFT_CARDS, "Buying a gift card", "Checking your gift card balance"),
        _answer("Returns and refunds for gift cards", "Gift cards themselves cannot be refunded "
                "for cash, but our refund policy applies to anything you bought with a gift "
                "card."),
        *_plain(GIFT_CARDS, "Lost or stolen gift cards"),
    )),
    ("Payments", (
        *_plain(PAYMENTS, "Payment methods", "Pay later", "Promo codes"),
        _Article("Price match policy", PAYMENTS,
                 "Our price match policy covers identical items sold by UK retailers."),
        *_plain(PAYMENTS, "VAT receipts"),
    )),
    ("Your account", _plain(ACCOUNT, "Creating an account", "Resetting your password",
                            "Marketing preferences", "Deleting your account")),
    ("Product care", _plain(PRODUCT_CARE, "Caring for wood", "Caring for linen", "Candle safety",
                            "Seasoning cast iron", "Our two-year guarantee")),
)
HELP_CATEGORIES = tuple(category for category, _ in _MENU)
_STEPS = {
    "How to request a refund": (
        "Sign in to your account and open Your orders.",
        "Choose the order and select Request a refund.",
        "Tell us which items you are sending back and why.",
        "Print the free returns label and drop the parcel at a parcel shop.",
        "We email you as soon as your refund has been issued.",
    ),
    "How to return an item": (
        "Sign in to your account and open Your orders.",
        "Choose Return items and select what you are sending back.",
        "Pack the items in their original packaging.",
        "Attach the free returns label and drop the parcel at a store or parcel shop.",
    ),
}


def _article_path(title: str) -> str:
    return f"/articles/{slugify(title)}"


def _footer_note() -> tuple[Inline, ...]:
    return ("30-day refund policy \u2014 see our ",
            Link("refund policy", _article_path("Refund policy"), HELP_HOST), ".")


def _footer() -> tuple[tuple[str, tuple[Link, ...]], ...]:
    return (
        ("Customer care", (Link("Help centre", "/", HELP_HOST),
                           Link("Delivery", f"/categories/{slugify('Delivery')}", HELP_HOST),
                           Link("Returns", _article_path("How to return an item"), HELP_HOST),
                           Link("Contact us", "/requests/new", HELP_HOST))),
        ("About us", (Link("Our story", "/about", SHOP_HOST), Link("Stores", "/stores", SHOP_HOST),
                      Link("Sustainability", "/sustainability", SHOP_HOST),
                      Link("Careers", "/careers", SHOP_HOST))),
        ("Legal", (Link("Privacy policy", "/privacy-policy", SHOP_HOST),
                   Link("Cookie policy", "/cookie-policy", SHOP_HOST),
                   Link("Terms and conditions", "/terms", SHOP_HOST),
                   Link("Accessibility", "/accessibility", SHOP_HOST))),
        ("Follow us", social_links("hearthandoak", "Instagram", "Pinterest", "Facebook", "TikTok")),
    )


def _shop_chrome() -> Chrome:
    nav = (*(Link(name, category_path(name)) for name, _ in CATEGORIES), Link("Sale", "/sale"))
    utility = (Link("Help", "/", HELP_HOST), Link("Stores", "/stores"),
               Link("Sign in", "/account/login"), Link("Basket", "/cart"),
               Link("Search", "/search"))
    return Chrome("Hearth & Oak", nav, utility, _footer(), _footer_note(),
                  "© 2025 Hearth & Oak Ltd", nav_label="Shop by category")


def _help_chrome() -> Chrome:
    nav = (Link("Help centre", "/"),
           *(Link(name, f"/categories/{slugify(name)}") for name in HELP_CATEGORIES),
           Link("Contact us", "/requests/new"), Link("Back to the shop", "/", SHOP_HOST))
    return Chrome("Hearth & Oak Help Centre", nav, (Link("Search help", "/search"),), _footer(),
                  _footer_note(), "© 2025 Hearth & Oak Ltd", home_label="Help centre")


def _help_centre(help_site: HostContext) -> None:
    prose = help_site.prose("help")
    popular = ("Track your order", "How to return an item", "Delivery options and costs",
               "Change or cancel an order", "Checking your gift card balance")
    help_site.add("/", "How can we help?", [
        Heading("Browse by topic"),
        bullets(*(Link(name, f"/categories/{slugify(name)}") for name in HELP_CATEGORIES)),
        Heading("Popular questions"),
        bullets(*(Link(title, _article_path(title)) for title in popular)),
    ], breadcrumbs=False, full_title="Help centre | Hearth & Oak")
    for category, articles in _MENU:
        cat_link = Link(category, f"/categories/{slugify(category)}")
        links = [Link(article.title, _article_path(article.title)) for article in articles]
        help_site.add(cat_link.target, category, [bullets(*links)])
        for article, link in zip(articles, links, strict=True):
            _help_article(help_site, prose, article, cat_link,
                          related=[other for other in links if other != link][:4])


def _help_article(help_site: HostContext, prose: Prose, article: _Article, cat_link: Link,
                  related: list[Link]) -> None:
    slug = slugify(article.title)
    blocks: list[Block] = [para(article.lead)] if article.lead else []
    blocks += paras(prose, article.topic, 2)
    if article.title in _STEPS:
        blocks += [Heading("Step by step"), bullets(*_STEPS[article.title], ordered=True)]
    blocks.append(para("Was this article helpful? ",
                       Link("Yes", f"/feedback?article={slug}&helpful=yes"), " ",
                       Link("No", f"/feedback?article={slug}&helpful=no")))
    help_site.add(_article_path(article.title), article.title, blocks, crumbs=(cat_link,),
                  aside=related, aside_title="Related articles", relevant=article.relevant)


def _shop_home(shop: HostContext) -> None:
    shop.add("/", "Hearth & Oak", [
        para("Thoughtfully made things for the home, the table and the garden."),
        Heading("Shop by category"),
        bullets(*(Link(name, category_path(name)) for name, _ in CATEGORIES)),
        Heading("This season"),
        para(Link("Shop the sale", "/sale?utm_source=homepage&utm_medium=hero&utm_campaign=winter"),
             " ", Link("Gift cards", "/gift-cards")),
        para("Questions about an order? Visit our ", Link("help centre", "/", HELP_HOST), "."),
    ], breadcrumbs=False, full_title="Hearth & Oak: homeware, tableware and garden")


def build_helpdesk(seed: int) -> DemoSite:
    builder = SiteBuilder(name="helpdesk", query=QUERY, description=DESCRIPTION,
                          seed_host=SHOP_HOST, kept_params=("page",), lesson=LESSON,
                          watch=WATCH, settings=SETTINGS)
    builder.register_host(SHOP_HOST, _shop_chrome(), "en",
                          ("/cart", "/checkout", "/account/", "/search"))
    builder.register_host(HELP_HOST, _help_chrome(), "en", ("/search", "/requests/", "/feedback"))
    shop = HostContext(builder, seed, SHOP_HOST, "en", _shop_chrome())
    help_site = HostContext(builder, seed, HELP_HOST, "en", _help_chrome())
    _shop_home(shop)
    build_catalog(shop)
    _help_centre(help_site)
    return builder.build()
