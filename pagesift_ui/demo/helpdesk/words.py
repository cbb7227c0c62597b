"""Word banks of the helpdesk scenario: a home-goods shop and its help centre (tables only)."""

from __future__ import annotations

from ..kit.text import NO_OPENERS, Topic

__all__ = [
    "ACCOUNT", "CATEGORIES", "DELIVERY", "GIFT_CARDS", "ORDERS", "PAYMENTS",
    "PRODUCT", "PRODUCT_CARE", "REFUNDS", "RETURNS", "REVIEWS", "SHOP_INFO", "STYLE_WORDS",
]

# category -> (item, materials it is made in)
_METAL = ("Enamel", "Copper", "Stainless Steel", "Cast Iron")
_WOOD = ("Oak", "Ash", "Walnut", "Bamboo")
_CERAMIC = ("Stoneware", "Porcelain", "Terracotta")
_TEXTILE = ("Linen", "Cotton", "Wool")
CATEGORIES: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    ("Kitchen", (("Saucepan", _METAL), ("Frying Pan", _METAL), ("Chopping Board", _WOOD),
                 ("Utensil Set", _WOOD), ("Mixing Bowl", _CERAMIC), ("Kettle", _METAL[:3]),
                 ("Colander", _METAL[:3]))),
    ("Tableware", (("Dinner Plate Set", _CERAMIC), ("Pasta Bowl", _CERAMIC), ("Mug", _CERAMIC),
                   ("Serving Platter", (*_CERAMIC, *_WOOD)), ("Tumbler Set", ("Glass",)),
                   ("Teapot", _CERAMIC), ("Butter Dish", ("Marble", *_CERAMIC)))),
    ("Bedding", (("Duvet Cover", _TEXTILE[:2]), ("Pillowcase Pair", _TEXTILE[:2]),
                 ("Fitted Sheet", _TEXTILE[:2]), ("Throw", _TEXTILE), ("Bedspread", _TEXTILE),
                 ("Cushion Cover", (*_TEXTILE, "Velvet")))),
    ("Bath", (("Bath Towel", ("Cotton", "Organic Cotton")), ("Hand Towel", ("Cotton", "Linen")),
              ("Bath Mat", ("Cotton", "Teak")), ("Soap Dish", ("Marble", "Stoneware")),
              ("Laundry Basket", ("Rattan", "Seagrass")), ("Robe", ("Linen", "Waffle Cotton")))),
    ("Lighting", (("Table Lamp", ("Brass", "Ceramic", "Oak")), ("Floor Lamp", ("Brass", "Ash")),
                  ("Pendant Shade", ("Rattan", "Linen", "Glass")), ("Wall Light", ("Brass",)),
                  ("Lantern", ("Glass", "Copper")))),
    ("Storage", (("Storage Basket", ("Rattan", "Seagrass", "Jute")), ("Shelf Unit", _WOOD),
                 ("Storage Jar", ("Glass", "Stoneware")), ("Coat Hook Rail", ("Oak", "Brass")),
                 ("Drawer Organiser", ("Bamboo", "Felt")))),
    ("Garden", (("Planter", ("Terracotta", "Zinc", "Stone")), ("Watering Can", ("Zinc", "Copper")),
                ("Garden Bench", ("Teak", "Oak")), ("Bird Feeder", ("Zinc", "Oak")),
                ("Trowel Set", ("Ash", "Stainless Steel")), ("Plant Stand", ("Iron", "Bamboo")))),
    ("Outdoor", (("Picnic Blanket", ("Wool", "Cotton")),
                 ("Outdoor Cushion", ("Recycled Polyester",)),
                 ("Fire Pit", ("Corten Steel", "Cast Iron")), ("Hammock", ("Cotton",)),
                 ("Parasol", ("Canvas",)), ("Cool Box", ("Canvas", "Enamel")))),
    ("Home Fragrance", (("Scented Candle", ("Soy Wax", "Rapeseed Wax")),
                        ("Reed Diffuser", ("Glass",)), ("Room Spray", ("Glass",)),
                        ("Tealight Holder", ("Glass", "Brass")), ("Candle Snuffer", ("Brass",)))),
    ("Desk and Stationery", (("Notebook", ("Recycled Paper", "Linen")), ("Desk Tidy", _WOOD),
                             ("Letter Tray", ("Oak", "Brass")), ("Pen Pot", _CERAMIC),
                             ("Wall Planner", ("Recycled Paper",)),
                             ("Photo Frame", ("Oak", "Brass")))),
)
STYLE_WORDS = ("Harbour", "Fenwick", "Alder", "Coastal", "Meadow", "Nordic", "Heritage",
               "Willow", "Ember", "Cove", "Linden", "Moor", "Rye", "Sable", "Thistle")

PRODUCT = Topic((
    "made from {material}, the {item} is built to last for years",
    "the {item} brings a calm, natural look to any room",
    "each {item} is finished by hand, so no two are quite the same",
    "it pairs well with the rest of the {style} collection",
    "the {material} gains character with age",
    "a simple design that works in modern and traditional homes",
    "designed in our studio and made by a family-run workshop",
    "the {item} is sized for everyday use",
    "wipe clean with a damp cloth and dry straight away",
    "the colours are inspired by the coast in winter",
    "we test every {item} for strength and finish before it leaves the workshop",
    "packed in recycled and recyclable materials",
), NO_OPENERS)

REVIEWS = (
    "Lovely quality and arrived quickly.", "Even better than the photos.",
    "Good value for the price.", "Bought as a gift and they loved it.",
    "Nice, but smaller than I expected.", "Sturdy and well made.",
    "The colour is beautiful in real life.", "Second one I have bought, very happy.",
)

ORDERS = Topic((
    "you will receive an order confirmation email within a few minutes",
    "you can track your order from the link in your dispatch email",
    "orders placed before 2pm on a working day are dispatched the same day",
    "if an item is missing, it may be arriving in a separate parcel",
    "you can change your order until it is packed",
    "your order history is available in your account",
    "large orders may arrive on different days",
    "our customer care team can place an order for you by phone",
    "we send a text message on the morning of delivery",
    "order numbers start with HO followed by eight digits",
))

DELIVERY = Topic((
    "standard delivery takes three to five working days",
    "next-day delivery is available for orders placed before 8pm",
    "delivery is free on orders over £50",
    "large items are delivered by a two-person team",
    "we deliver to more than thirty countries",
    "click and collect orders are ready in stores after two working days",
    "you can choose a delivery day at checkout for larger items",
    "our couriers will try to deliver twice before returning the parcel to us",
    "you can change your delivery address until your order is dispatched",
    "customs charges for international delivery are shown at checkout",
))

PAYMENTS = Topic((
    "we accept Visa, Mastercard, American Express and PayPal",
    "you can spread the cost with our pay later partner",
    "promo codes are entered at checkout and apply to full-price items",
    "only one promo code can be used per order",
    "your card is charged when your order is dispatched",
    "we match the price of an identical item sold by a UK retailer",
    "a VAT receipt is available in your account for every order",
    "payments are processed securely and we never store your card details",
    "pre-authorisation holds may show on your statement for a few days",
    "gift cards can be combined with a card payment",
))

ACCOUNT = Topic((
    "an account lets you track orders and save your addresses",
    "you can reset your password from the sign-in page",
    "marketing preferences can be changed at any time",
    "we will ask you to confirm your email address when you register",
    "you can ask us to delete your account and the data we hold",
    "saved items stay in your wishlist for twelve months",
    "you can check out as a guest without creating an account",
    "we never share your details with other companies for marketing",
))

PRODUCT_CARE = Topic((
    "wooden boards should be oiled once a month",
    "linen softens with every wash",
    "never leave a burning candle unattended",
    "trim the wick to 5 mm before lighting a candle",
    "cast iron should be dried and oiled after washing",
    "stoneware is dishwasher safe unless stated otherwise",
    "keep rattan out of direct sunlight to stop it drying out",
    "wash towels before first use to improve absorbency",
    "copper develops a natural patina that can be polished away",
    "outdoor cushions should be stored indoors in winter",
))

RETURNS = Topic((
    "you can return most items within 30 days of delivery",
    "items must be unused and in their original packaging",
    "print a free returns label from your account",
    "returns can be dropped at any of our stores or at a parcel shop",
    "large items are collected from your home at a time that suits you",
    "personalised items cannot be returned unless they are faulty",
    "keep your proof of postage until your return has been processed",
    "we email you when your return arrives at our warehouse",
))

REFUNDS = Topic((
    "our refund policy gives you 30 days to change your mind",
    "under our refund policy, refunds are paid to the original payment method",
    "we process your refund within five working days of receiving your return",
    "banks can take a further three to five days to show a refund",
    "delivery charges are refunded if you return the whole order",
    "refunds for sale items are made at the price you paid",
    "if a promo code was used, the refund is reduced by the discount on the returned item",
    "faulty items are refunded in full, including delivery",
    "you will receive an email as soon as we issue your refund",
    "the refund policy does not affect your statutory rights",
    "if you paid with a gift card, the refund goes back onto a gift card",
    "refunds for pay later orders are sent to our payment partner, who updates your plan",
))

GIFT_CARDS = Topic((
    "gift cards are available from £10 to £500",
    "digital gift cards are sent by email within an hour",
    "gift cards are valid for two years from the date of purchase",
    "you can check your balance online at any time",
    "gift cards can be used online and in all our stores",
    "a lost gift card can be replaced if you have the proof of purchase",
    "gift cards cannot be exchanged for cash",
    "you can add a personal message to a digital gift card",
))

SHOP_INFO = Topic((
    "Hearth & Oak is an independent company based in Yorkshire",
    "we work with small workshops in Britain, Portugal and India",
    "our studio designs every collection in-house",
    "we pay the real living wage to everyone who works for us",
    "our warehouse runs on renewable electricity",
    "we publish a full list of our suppliers every year",
    "customer care is open seven days a week",
    "we have been a certified B Corporation since 2021",
), NO_OPENERS)
