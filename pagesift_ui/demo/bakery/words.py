"""Word banks of the bakery scenario: Hillside Bakery's blog."""

from __future__ import annotations

from ..kit.text import NO_OPENERS, Topic

__all__ = ["BISCUITS", "CAKES", "PIES", "SHOP", "SOURDOUGH"]

# Never the word "hydration": the whole site names it once (see scenario._HYDRATION).
SOURDOUGH = Topic((
    "a sourdough starter is only flour, water and time",
    "feed your starter at the same hour every day and it will keep a steady rhythm",
    "a lively starter doubles in size within six hours of a feed",
    "rye flour wakes up a sleepy sourdough starter faster than white flour",
    "keep a spoonful of starter back from every bake to begin the next one",
    "a starter kept in the fridge needs a feed only once a week",
    "the sour smell of a hungry starter fades within an hour of feeding",
    "sourdough loaves rise slowly, so plan the bake the evening before",
    "a grey liquid on top of the starter is alcohol: pour it off and feed",
    "our sourdough bread is proved for eighteen hours before it meets the oven",
    "float a spoonful of starter in water: if it floats, it is ready to bake with",
    "a new sourdough starter takes about a week to become reliable",
    "use the starter at its peak, just before it begins to fall",
    "wholemeal sourdough needs a little more water than a white loaf",
    "a warm kitchen speeds the starter up; a cold one slows it down",
    "bakers name their starters, and ours has been fed since 1987",
), openers=NO_OPENERS)
CAKES = Topic((
    "the lemon drizzle is soaked while it is still warm from the oven",
    "our carrot cake takes a cream cheese icing and a handful of walnuts",
    "we bake the Victoria sponge in two tins so the layers stay light",
    "the chocolate fudge cake is our best seller on Saturdays",
    "a coffee and walnut cake keeps for four days in a tin",
    "birthday cakes can be ordered a week ahead at the counter",
    "the fruit cake is fed with brandy every fortnight from October",
    "we use free-range eggs from a farm two miles up the road",
    "a gluten-free almond cake is on the counter every Thursday",
    "the ginger loaf is dark, sticky and better on the second day",
), openers=NO_OPENERS)
BISCUITS = Topic((
    "the shortbread is rolled thick and pricked with a fork",
    "our oat biscuits are made with golden syrup and a pinch of salt",
    "the ginger nuts snap cleanly when they have cooled",
    "a tin of mixed biscuits makes a welcome present",
    "the jam rings are filled with raspberry jam from the market",
    "florentines are dipped in dark chocolate on one side",
    "the cheese straws go quickly at the Friday market stall",
    "we bake the biscuits in small batches through the morning",
    "the lavender shortbread uses flowers from the garden behind the shop",
), openers=NO_OPENERS)
PIES = Topic((
    "the pork pies are raised by hand in hot water crust pastry",
    "our apple pie uses Bramley apples and a lattice top",
    "the steak and ale pie is on the menu from October to March",
    "custard tarts are baked until the top just wobbles",
    "the Bakewell tart has a layer of cherry jam under the frangipane",
    "a quiche of the day is on the counter from eleven o'clock",
    "the mince pies appear on the first of December and not a day before",
    "the treacle tart is served warm with clotted cream",
), openers=NO_OPENERS)
SHOP = Topic((
    "the shop on Hillside Road opens at seven every morning but Sunday",
    "wholesale orders are delivered to cafes in town before nine",
    "we close for two weeks in August while the ovens are serviced",
    "orders for the weekend must reach us by Thursday noon",
    "the market stall is in the square every Friday and Saturday",
    "there is a step at the door and a ramp on request",
), openers=NO_OPENERS)
