#!/usr/bin/env python3
"""Builds the benchmark lists urls.txt and titles.txt from the WCXB dev split (CC-BY-4.0, see README.md).

Deterministic: the same inputs always give the same files. Usage:

    python3 generate.py [path/to/wcxb-dev]

The default path is shared/data/extraction/wcxb-dev beside the repository checkout.
Each real URL is kept and joined by dirty variants (tracking parameters, www./m./amp./mobile. hosts,
fragments, mixed case, default ports, http/https, AMP paths); real titles come both clean (ground truth)
and as the page's raw <title> (publisher suffixes, character references), plus multilingual headlines
with publisher prefixes and suffixes written for this benchmark.
"""

import glob
import gzip
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "extraction", "wcxb-dev")

TRACKING = [
    "utm_source=rss&utm_medium=feed&utm_campaign=news",
    "utm_source=twitter",
    "fbclid=IwAR2xQk7hT1bqLw0sZ9",
    "gclid=Cj0KCQiA4L67BhDUARIsADWrl7",
    "mc_cid=4f1e2d3c4b&mc_eid=9a8b7c6d5e",
    "ref=rss",
    "CMP=share_btn_tw",
    "xtor=RSS-3208",
    "_ga=2.123456.789",
    "sort=newest",
    "igshid=MzRlODBiNWFlZA==",
    "at_medium=RSS&at_campaign=KARANGA",
]
FRAGMENTS = ["#comments", "#section-2", "#top", "#!/story"]
HOST_PREFIXES = ["www.", "m.", "amp.", "mobile.", "news."]

SPECIAL_URLS = [
    "https://www.youtube.com/watch?v=aFCO6WidGVM",
    "https://m.youtube.com/watch?v=aFCO6WidGVM&feature=share",
    "https://youtu.be/aFCO6WidGVM?t=30",
    "https://www.youtube.com/embed/aFCO6WidGVM?start=3",
    "https://www.youtube.com/channel/UCupvZG-5ko_eiXAupbDfxWw/videos",
    "https://www.youtube.com/user/CNN?sub_confirmation=1",
    "https://archive.is/o/vWkgm/www.huffingtonpost.com/entry/story_n_123",
    "https://www-theguardian-com.cdn.ampproject.org/c/s/www.theguardian.com/world/2020/jan/01/story",
    "https://www.google.com/amp/s/www.bbc.co.uk/news/amp/world-12345678",
    "https://www.nytimes.com/2020/01/01/us/politics/story.html?smid=tw-share&partner=rss&emc=rss",
    "https://www.facebook.com/BerkmanCenter?ref=br_tf",
    "http://10.2.3.4/hello/world.html",
    "https://www.gpo.gov:/fdsys/pkg/PLAW-116publ1/html/PLAW-116publ1.htm",
    "http://http://www.al-monitor.com/pulse/originals/2020/01/story.html",
    "https://www.bücher.de/artikel/buch/123",
    "https://новости.рф/статья/2020/01/01",
    "https://www.lemonde.fr/international/article/2020/01/01/titre_123_3210.html?xtor=RSS-3208",
    "https://elpais.com/internacional/2020-01-01/titular.html?outputType=amp",
    "https://www.spiegel.de/politik/deutschland/artikel-a-1234.html#ref=rss",
    "https://foo.blogspot.com/2020/01/post.html?m=1",
    "https://bit.ly/3xYzAbC",
    "https://t.co/AbCdEf1234",
    "//www.example.com/protocol-relative/story",
    "www.example.org/no-scheme/story",
    "http://example.com/a/../b/./c//d?b=2&a=1&utm_medium=email",
]

# Headlines written for this benchmark, in the shape publishers give them (prefix or suffix, several separators).
MULTILINGUAL_TITLES = [
    "El Gobierno aprueba la reforma de las pensiones tras meses de negociación - EL PAÍS",
    "El Gobierno aprueba la reforma de las pensiones tras meses de negociación | EL PAÍS",
    "Última hora: el Congreso vota hoy los presupuestos generales | RTVE.es",
    "La inflación se modera en marzo por el abaratamiento de la electricidad – El Confidencial",
    "Le gouvernement présente son budget pour l&#8217;année prochaine | Le Monde",
    "Ukraine : la Russie lance une attaque massive sur Kiev - Le Figaro",
    "Grève SNCF : le trafic fortement perturbé ce jeudi – Libération",
    "Bundesregierung beschließt neues Klimaschutzgesetz - DER SPIEGEL",
    "Klimaschutz: Bundestag stimmt über Heizungsgesetz ab | tagesschau.de",
    "Inflation in Deutschland sinkt auf 2,2 Prozent – ZEIT ONLINE",
    "Governo anuncia novas medidas para a economia brasileira | Folha de S.Paulo",
    "STF julga hoje recurso sobre marco temporal das terras indígenas - Notícias - R7",
    "Lula sanciona lei que amplia isenção do Imposto de Renda – g1",
    "Правительство утвердило новый бюджет на следующий год — РИА Новости",
    "В Москве открылась новая станция метро - Новости - Коммерсантъ",
    "Η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία | Η ΚΑΘΗΜΕΡΙΝΗ",
    "ΕΚΤ: Αμετάβλητα τα επιτόκια για τρίτο μήνα - Naftemporiki.gr",
    "国务院常务会议部署推进新型城镇化建设工作｜人民网",
    "国家统计局发布一季度国民经济运行数据_新闻中心_新浪网",
    "习近平会见法国总统马克龙 - 新华网",
    "政府、新たな経済対策を閣議決定 | NHKニュース",
    "日銀、マイナス金利解除を決定　17年ぶり利上げ：日本経済新聞",
    "東京株式市場　日経平均が史上最高値を更新 - ＮＨＫﾆｭｰｽ",
    "Italia, il governo approva la manovra finanziaria - la Repubblica",
    "Kabinet presenteert plannen voor woningbouw | NOS",
    "Rząd przyjął projekt budżetu na przyszły rok - Wiadomości - WP",
    "Malmö stad inför nya regler för elsparkcyklar | SVT Nyheter",
    "Sykehus i Tromsø må kutte stillinger – NRK",
    "İstanbul'da deprem tatbikatı yapıldı - Son Dakika Haberleri",
    "(no title)",
    "Home | News | Long headline about the city council vote on housing",
]
PUBLISHER_SUFFIXES = [
    " - The Boston Globe",
    " | Reuters",
    " – EL PAÍS",
    " | Le Monde",
    " - DER SPIEGEL",
    " | Folha de S.Paulo",
    " — РИА Новости",
    " | Η ΚΑΘΗΜΕΡΙΝΗ",
    "｜人民网",
    " - ＮＨＫニュース",
]
PUBLISHER_PREFIXES = ["NYT: ", "Opinion | ", "BBC News - ", "WATCH: "]


def read_source(source):
    urls, titles, html_titles = [], [], []
    for path in sorted(glob.glob(os.path.join(source, "ground-truth", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        urls.append(doc["url"])
        titles.append(doc["ground_truth"]["title"])
        html_path = os.path.join(source, "html", doc["file_id"] + ".html.gz")
        with gzip.open(html_path) as f:
            html = f.read().decode("utf-8", "replace")
        match = re.search(r"<title[^>]*>(.*?)</title>", html, re.S | re.I)
        if match:
            html_titles.append(match.group(1))
    return urls, titles, html_titles


def one_line(text):
    return " ".join(text.split())


def dirty_variant(rng, url):
    scheme, rest = url.split("://", 1)
    host, _, path = rest.partition("/")
    path = "/" + path
    choice = rng.randrange(8)
    if choice == 0:
        scheme = "http" if scheme == "https" else "https"
    elif choice == 1:
        bare = host[4:] if host.startswith("www.") else host
        host = rng.choice(HOST_PREFIXES) + bare
    elif choice == 2:
        host = host.upper()
        scheme = scheme.upper()
    elif choice == 3:
        host += ":443" if scheme == "https" else ":80"
    elif choice == 4:
        path = path.rstrip("/") + rng.choice(["/amp/", "/amp", "?amp=1", "?outputType=amp"])
    elif choice == 5:
        path = path.replace("/", "//", 1)
    elif choice == 6:
        path = "/".join(p[:1].upper() + p[1:] for p in path.split("/"))
    if rng.random() < 0.7:
        path += ("&" if "?" in path else "?") + rng.choice(TRACKING)
    if rng.random() < 0.3:
        path += rng.choice(FRAGMENTS)
    return f"{scheme}://{host}{path}"


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SOURCE
    rng = random.Random(20261122)
    urls, titles, html_titles = read_source(source)

    url_list = []
    for url in urls:
        url_list.append(url)
        for _ in range(3):
            url_list.append(dirty_variant(rng, url))
    url_list.extend(SPECIAL_URLS)

    title_list = [one_line(t) for t in titles + html_titles]
    title_list.extend(MULTILINGUAL_TITLES)
    for title in titles:
        if rng.random() < 0.5:
            title_list.append(one_line(title) + rng.choice(PUBLISHER_SUFFIXES))
        else:
            title_list.append(rng.choice(PUBLISHER_PREFIXES) + one_line(title))

    with open(os.path.join(HERE, "urls.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(url_list) + "\n")
    with open(os.path.join(HERE, "titles.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(t for t in title_list if t) + "\n")
    print(f"{len(url_list)} urls, {len(title_list)} titles")


if __name__ == "__main__":
    main()
