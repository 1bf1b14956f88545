"""Other names of the catalog's landmarks: official names, former names, local names and translations.

Vision services name a landmark the way their own knowledge base does, sometimes in its local
language ("Brandenburger Tor"), by a former name ("Victoria Terminus") or by a part of the site
("Elizabeth Tower" for the clock tower called Big Ben). `recognizers.matching.match_name` looks a name
up here after its spelling rules find no entry. A name here must denote one catalog entry only:
generic words ("City Hall", "Westminster", "Tower") are left out, and a name listed for two
entries is refused by the test of this table.
"""

from __future__ import annotations

OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "brandenburg gate": ("Brandenburger Tor", "Porte de Brandebourg", "Puerta de Brandeburgo", "Porta di Brandeburgo"),
    "jal mahal": ("Jal Mahal Palace", "Water Palace Jaipur", "Jal Mehal"),
    "sydney opera house": ("Opera House Sydney", "Opéra de Sydney", "Sydney Opernhaus", "Ópera de Sídney"),
    "viking ship museum": ("Vikingskipshuset", "Vikingskipmuseet", "Viking Ship Museum Oslo", "Wikingerschiffmuseum"),
    "pyramid of djoser": (
        "Step Pyramid of Djoser",
        "Djoser Pyramid",
        "Pyramid of Zoser",
        "Stufenpyramide des Djoser",
        "Pyramide de Djéser",
    ),
    "forbidden city": ("Zijin Cheng", "Gugong", "Cité interdite", "Verbotene Stadt"),
    "palais garnier": ("Opéra Garnier", "Opera Garnier", "Paris Opera", "Opéra de Paris", "Salle Garnier"),
    "palace of westminster": ("Houses of Parliament", "Westminster Palace", "Parliament of the United Kingdom"),
    "freedom monument": ("Brīvības piemineklis", "Freiheitsdenkmal Riga", "Monument de la Liberté Riga"),
    "trevi fountain": ("Fontana di Trevi", "Fontaine de Trevi", "Trevi-Brunnen", "Fuente de Trevi"),
    "sunwapta falls": ("Chutes Sunwapta", "Sunwapta Wasserfälle"),
    "alamo mission in san antonio": (
        "The Alamo",
        "Alamo",
        "Misión de San Antonio de Valero",
        "Mission San Antonio de Valero",
    ),
    "mount vernon": ("George Washington's Mount Vernon", "Mount Vernon Estate", "Mount Vernon Plantation"),
    "slieve league": ("Sliabh Liag", "Slieve League Cliffs", "Slieve Liag"),
    "sheikh zayed mosque": ("Sheikh Zayed Grand Mosque", "Grand Mosque Abu Dhabi"),
    "haystack rock": ("Haystack Rock Cannon Beach",),
    "giralda": ("La Giralda", "Giralda Tower", "Giralda de Sevilla", "Torre Giralda"),
    "big ben": ("Elizabeth Tower", "Clock Tower Westminster", "Great Clock of Westminster"),
    "marine corps war memorial": (
        "Iwo Jima Memorial",
        "US Marine Corps War Memorial",
        "United States Marine Corps War Memorial",
        "Iwo Jima Monument",
    ),
    "mount of olives": ("Mount Olivet", "Har HaZeitim", "Jabal al-Zaytun", "Ölberg", "Mont des Oliviers"),
    "bryggen": ("Tyskebryggen", "The German Wharf", "Hanseatic Wharf Bergen", "Bryggen Bergen"),
    "chhatrapati shivaji terminus": (
        "Victoria Terminus",
        "Chhatrapati Shivaji Maharaj Terminus",
        "CST Mumbai",
        "Bombay VT",
        "Mumbai CST",
    ),
    "hanauma bay": ("Hanauma Bay Nature Preserve", "Hanauma Bay State Underwater Park"),
    "empire state building": ("Empire State", "ESB New York"),
    "phi phi islands": ("Ko Phi Phi", "Koh Phi Phi", "Phi Phi Island"),
    "fitz roy": ("Mount Fitz Roy", "Monte Fitz Roy", "Cerro Fitz Roy", "Cerro Chaltén", "Mount Fitzroy"),
    "koutoubia mosque": ("Kutubiyya Mosque", "Koutoubia", "Mosquée Koutoubia", "Kutubiyya"),
    "milwaukee art museum": ("Quadracci Pavilion", "Milwaukee Art Museum Calatrava"),
    "alcatraz island": ("Alcatraz", "The Rock Alcatraz", "Alcatraz Federal Penitentiary", "Isla de Alcatraz"),
    "saint joseph's oratory": (
        "Saint Joseph's Oratory of Mount Royal",
        "Oratoire Saint-Joseph du Mont-Royal",
        "Oratoire Saint-Joseph",
        "St. Joseph's Oratory Montreal",
    ),
    "city hall, london": ("London City Hall", "City Hall London", "The Glass Egg London"),
    "westminster bridge": ("Westminster Bridge London", "Pont de Westminster"),
}
