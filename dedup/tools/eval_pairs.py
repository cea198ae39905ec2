"""Synthetic evaluation pairs for the embedder, shared by eval_postprocess.py and the Rust
example `embed_eval` (which reads the JSONL this module writes). Deterministic (seeded).

Positives: a paragraph and its edited copy (one sentence dropped, two adjacent sentences
swapped, one sentence from another language's paragraph appended). Negatives: the paragraph and
a paragraph of another document (`random`), or another paragraph of the same document
(`same_doc`, same source and topic: the hard case). Translations: hand-written news sentences
in English with Spanish, German, French, Russian and Chinese versions.
"""

import json
import random
import re

SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")

# Hand-written by the project for this check.
TRANSLATIONS = [
    {"en": "The government announced new support measures for small businesses on Monday.",
     "es": "El gobierno anunció el lunes nuevas medidas de apoyo a las pequeñas empresas.",
     "de": "Die Regierung kündigte am Montag neue Hilfsmaßnahmen für kleine Unternehmen an.",
     "fr": "Le gouvernement a annoncé lundi de nouvelles mesures de soutien aux petites entreprises.",
     "ru": "В понедельник правительство объявило о новых мерах поддержки малого бизнеса.",
     "zh": "政府周一宣布了支持小企业的新措施。"},
    {"en": "Heavy snow closed several roads in the capital overnight.",
     "es": "Una fuerte nevada cerró varias carreteras de la capital durante la noche.",
     "de": "Starker Schneefall hat über Nacht mehrere Straßen in der Hauptstadt gesperrt.",
     "fr": "De fortes chutes de neige ont fermé plusieurs routes de la capitale pendant la nuit.",
     "ru": "Ночью сильный снегопад перекрыл несколько дорог в столице.",
     "zh": "一夜大雪导致首都多条道路封闭。"},
    {"en": "The national football team won the friendly match two to one.",
     "es": "La selección nacional de fútbol ganó el partido amistoso por dos a uno.",
     "de": "Die Fußballnationalmannschaft gewann das Freundschaftsspiel mit zwei zu eins.",
     "fr": "L'équipe nationale de football a remporté le match amical deux à un.",
     "ru": "Национальная сборная по футболу выиграла товарищеский матч со счётом два один.",
     "zh": "国家足球队以二比一赢得了友谊赛。"},
    {"en": "The central bank raised interest rates to fight inflation.",
     "es": "El banco central subió los tipos de interés para combatir la inflación.",
     "de": "Die Zentralbank hat die Zinsen erhöht, um die Inflation zu bekämpfen.",
     "fr": "La banque centrale a relevé ses taux d'intérêt pour lutter contre l'inflation.",
     "ru": "Центральный банк повысил процентные ставки, чтобы бороться с инфляцией.",
     "zh": "中央银行提高利率以抑制通货膨胀。"},
    {"en": "Thousands of people protested against the new pension law.",
     "es": "Miles de personas protestaron contra la nueva ley de pensiones.",
     "de": "Tausende Menschen protestierten gegen das neue Rentengesetz.",
     "fr": "Des milliers de personnes ont manifesté contre la nouvelle loi sur les retraites.",
     "ru": "Тысячи людей протестовали против нового пенсионного закона.",
     "zh": "数千人抗议新的养老金法。"},
    {"en": "A strong earthquake struck the coast, but no casualties were reported.",
     "es": "Un fuerte terremoto sacudió la costa, pero no se informó de víctimas.",
     "de": "Ein starkes Erdbeben erschütterte die Küste, Opfer wurden nicht gemeldet.",
     "fr": "Un fort séisme a frappé la côte, mais aucune victime n'a été signalée.",
     "ru": "Сильное землетрясение произошло у побережья, о жертвах не сообщается.",
     "zh": "沿海地区发生强烈地震，但没有人员伤亡的报告。"},
    {"en": "The company will cut two thousand jobs next year.",
     "es": "La empresa recortará dos mil empleos el próximo año.",
     "de": "Das Unternehmen wird im nächsten Jahr zweitausend Stellen streichen.",
     "fr": "L'entreprise supprimera deux mille emplois l'année prochaine.",
     "ru": "В следующем году компания сократит две тысячи рабочих мест.",
     "zh": "该公司明年将裁员两千人。"},
    {"en": "Scientists discovered a new species of frog in the rainforest.",
     "es": "Los científicos descubrieron una nueva especie de rana en la selva tropical.",
     "de": "Wissenschaftler haben im Regenwald eine neue Froschart entdeckt.",
     "fr": "Des scientifiques ont découvert une nouvelle espèce de grenouille dans la forêt tropicale.",
     "ru": "Учёные обнаружили в тропическом лесу новый вид лягушек.",
     "zh": "科学家在雨林中发现了一种新的青蛙。"},
    {"en": "The president will visit China next week to discuss trade.",
     "es": "El presidente visitará China la próxima semana para hablar de comercio.",
     "de": "Der Präsident wird nächste Woche China besuchen, um über Handel zu sprechen.",
     "fr": "Le président se rendra en Chine la semaine prochaine pour discuter de commerce.",
     "ru": "На следующей неделе президент посетит Китай, чтобы обсудить торговлю.",
     "zh": "总统下周将访问中国讨论贸易问题。"},
    {"en": "Hospitals are overwhelmed as flu cases rise sharply this winter.",
     "es": "Los hospitales están desbordados por el fuerte aumento de casos de gripe este invierno.",
     "de": "Die Krankenhäuser sind überlastet, da die Grippefälle in diesem Winter stark steigen.",
     "fr": "Les hôpitaux sont débordés face à la forte hausse des cas de grippe cet hiver.",
     "ru": "Больницы переполнены: этой зимой резко выросло число случаев гриппа.",
     "zh": "今年冬天流感病例急剧增加，医院不堪重负。"},
    {"en": "The new museum of modern art opens its doors to the public on Saturday.",
     "es": "El nuevo museo de arte moderno abre sus puertas al público el sábado.",
     "de": "Das neue Museum für moderne Kunst öffnet am Samstag seine Türen für das Publikum.",
     "fr": "Le nouveau musée d'art moderne ouvre ses portes au public samedi.",
     "ru": "Новый музей современного искусства откроется для посетителей в субботу.",
     "zh": "新的现代艺术博物馆将于周六向公众开放。"},
    {"en": "Oil prices fell after producers agreed to increase output.",
     "es": "Los precios del petróleo cayeron después de que los productores acordaran aumentar la producción.",
     "de": "Die Ölpreise fielen, nachdem sich die Förderländer auf eine höhere Produktion geeinigt hatten.",
     "fr": "Les prix du pétrole ont baissé après que les producteurs ont accepté d'augmenter la production.",
     "ru": "Цены на нефть упали после того, как производители договорились увеличить добычу.",
     "zh": "产油国同意增产后，油价下跌。"},
]


def sentences(text):
    return [s for s in SENTENCE.split(text.strip()) if s]


def build(paragraphs, seed=20261122, per_kind=600):
    """paragraphs: list of {lang, doc, text}. Returns a list of {kind, label, a, b}."""
    rng = random.Random(seed)
    usable = [p for p in paragraphs if len(sentences(p["text"])) >= 3]
    rng.shuffle(usable)
    by_doc = {}
    for p in paragraphs:
        by_doc.setdefault(p["doc"], []).append(p)
    foreign = [p for p in paragraphs if p["lang"] not in ("en", "mixed")]
    pairs = []
    for p in usable[:per_kind]:
        s = sentences(p["text"])
        edited = list(s)
        del edited[rng.randrange(len(edited))]
        i = rng.randrange(len(edited) - 1)
        edited[i], edited[i + 1] = edited[i + 1], edited[i]
        donors = [q for q in foreign if q["lang"] != p["lang"]]
        edited.append(rng.choice(sentences(rng.choice(donors)["text"])))
        pairs.append({"kind": "edited", "label": 1, "a": p["text"], "b": " ".join(edited)})
        other = rng.choice(paragraphs)
        while other["doc"] == p["doc"]:
            other = rng.choice(paragraphs)
        pairs.append({"kind": "random", "label": 0, "a": p["text"], "b": other["text"]})
        siblings = [q for q in by_doc[p["doc"]] if q["text"] != p["text"]]
        if siblings:
            pairs.append({"kind": "same_doc", "label": 0, "a": p["text"],
                          "b": rng.choice(siblings)["text"]})
    for row in TRANSLATIONS:
        for lang in ("es", "de", "fr", "ru", "zh"):
            pairs.append({"kind": f"translation_{lang}", "label": 1, "a": row["en"], "b": row[lang]})
    return pairs


def auc(positives, negatives):
    """ROC AUC: the chance a random positive scores above a random negative (ties count half)."""
    scored = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives])
    rank_sum, i = 0.0, 0
    while i < len(scored):
        j = i
        while j < len(scored) and scored[j][0] == scored[i][0]:
            j += 1
        mid = (i + j + 1) / 2  # mean 1-based rank of the tie group
        rank_sum += mid * sum(label for _, label in scored[i:j])
        i = j
    n_pos, n_neg = len(positives), len(negatives)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


if __name__ == "__main__":
    import sys

    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    for pair in build(rows):
        print(json.dumps(pair, ensure_ascii=False))
