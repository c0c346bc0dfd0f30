"""Given names that are one name: nicknames, short forms and the same name in other languages.

"Steve" / "Stephen" / "Stefan", "Mike" / "Michael" / "Mikhail", "Fritz" /
"Friedrich", "Miklos" / "Nicolae", "Fco" / "Francisco". Spelling variants of
one romanisation ("Sergey" / "Sergei") are the skeleton's job
(:func:`~clubrating.identity.normalize.skeleton`); this table holds what no
spelling rule joins.

Source: compiled by hand for this project from common English, German, Dutch,
Scandinavian, Romance, Hungarian and Slavic hypocorisms and the equivalents
of each name across those languages (as listed e.g. in Wikipedia's articles
on each given name), plus the Spanish and Arabic written abbreviations
("Fco", "Md", "Mhd"). Deliberately narrow: names that are common on their own
in one language (Ivan, Juan, Jose, Jean) are not joined to their English
equivalent, so that "Smith, Jan" and "Smith, Ivan" stay different people.

Pure: no I/O.
"""

from __future__ import annotations

from functools import lru_cache

from clubrating.identity.normalize import skeleton

# One group a line: the forms of one given name (lower-case ASCII); a line indented by two spaces
# goes on with the group above.
_GROUPS = """
albert bert bertie beto albrecht
alexander alex alexandr aleksandr aleksander alexandre alessandro alejandro sasha sascha sandro
  sandor oleksandr olexandr olexander aliaksandr lex
alexey alexei aleksei aleksey oleksiy oleksii lyosha alexis
anatoly anatoli anatolij tolya anatoliy
andrew andreas andre andrzej andrei andrey andriy andrii andres andras andy drew andrej ondrej
  andrija andries
anthony antony antonio anton antoine antonius antoni antal tony toni ton teun
benjamin ben benny
bernard bernhard bernd bernardo bernat
charles carl karl carlos carlo charlie chuck karel karol kalle
christopher chris christoph christophe kristof krzysztof cristobal kristoffer christoffer
christian chris kristian christiaan cristian krystian
cornelis cornelius kees
daniel dan danny dani danil daniil
david dave davy davide davit dawid
dmitry dima dmitri dimitri dimitrios dimitar mitya dmytro
edward ed eddie eddy eduard eduardo edouard edvard edoardo
elizabeth liz beth betty elisabeth elisabeta elzbieta liza erzsebet elisabetta isabel
eugene eugen evgeny evgeni yevgeny yevhen zhenya eugenio eugeniusz jevgenij
francis frank francisco fco francesco francesc franz frantisek ferenc francois paco pancho fran
  frans franciszek
frederick fred freddy friedrich fritz frederic federico fryderyk
gabriel gabor gabriele gavriel gavril gabi
george georg georgios giorgos georgi georgiy giorgi jorge jerzy jiri gyorgy jurgen juergen jorg
  joerg heorhiy
gerard gerhard gerrit gert gerardo
gregory greg grigory grzegorz gregor gregorio grigor hryhoriy grisha
henry harry hendrik henk heinrich heinz hinrich enrique enrico henri henrik heiner
ignatius ignacio nacho ignacy ignaz
jacob jakob jakub jacobus kobus jaap jake jacques
james jim jimmy jamie jaime jacques
jeffrey jeff geoffrey geoff
john jon johnny jack johann johannes hans jan janos jens johan hannes jonny
joseph joe jozef josef giuseppe pepe jozsef yosef sepp
julius julio jules gyula julian
katherine catherine kate katie kathy katarzyna ekaterina katya kateryna katalin katharina katja
  caterina kasia
konstantin constantin kostya konstantinos kostas costas constantine
kurt konrad conrad
ladislav laszlo ladislaus
lawrence laurence larry lorenzo laurent lars
leonard leonardo leonhard lenny
lyubov lyuba luba liubov liuba lubov ljubov
louis lewis ludwig lajos ludovic ludvig ludvik luigi luis lutz
luke lucas lukas lukasz luca luka
margaret margarita rita maggie meg greta margareta margit margarete marga
maria mary marie mariya marija masha
mark marc marco marcus markus marko marek marcos
martin martinus marcin martino martyn
matthew matt mathias matthias mateusz matteo mateo mathieu matej matthijs thijs maciej
michael mike mick mikey michal mikhail mykhailo mykhail miguel michel michele mihail mihaly misha
  mikael mihai mijail
mohammed mohamed muhammad mohammad mohamad muhammed mohd md mhd muhd mohd
nadezhda nadia nadya nadja nadezda
natalia natasha natalie nataliya natalya natali
nicholas nick nicolas nikolai nikolay mykola nicolae nicola nikola niklas miklos nicolo niko
  nikolaus nicolaas klaas mikalai kolya
olga volha olha olya
patrick pat paddy patricio
paul pavel pavlo pavle pablo paolo pal paulo pawel paulus pasha paval
peter pete petr pyotr piotr pierre pedro pietro petar peder petrus piet pieter petro petya
sheikh shaikh sheik shaik sk shk
richard rick ricky dick rich ricardo riccardo rikard ryszard
robert rob bob bobby robbie roberto robi beto
rudolf rudolph rudi ruud rodolfo rudy
samuel sam samuele
sergey serhii serhiy sergio serge siarhei seryozha
stephen steve steven stefan steffen stephan stepan stefano esteban etienne istvan szczepan
susan susanne suzana susanna zuzana suzanne sue zsuzsa zsuzsanna
tatiana tatyana tanya tania tatjana tetiana
theodore theodor teodor fyodor fedor fedir feodor
thomas tom tommy tomas tomasz tommaso thom
timothy tim timo timofey
ulrich ulli uli ueli
vasily vasili vasilij vasyl vasile wassili basil
vincent vince vincenzo vicente
vladimir volodymyr vova volodya wladimir wlodzimierz uladzimir
vladislav wladyslaw uladzislau wladislaw
walter walt wally
william bill will willy billy wilhelm willem guillermo guillaume wim willi
yusuf yousef youssef yousuf yusef
"""


def _index() -> dict[str, frozenset[int]]:
    groups: dict[str, set[int]] = {}
    for number, line in enumerate(_GROUPS.strip().replace("\n  ", " ").splitlines()):
        for form in line.split():
            groups.setdefault(skeleton(form), set()).add(number)
    return {key: frozenset(ids) for key, ids in groups.items()}


_INDEX = _index()


@lru_cache(maxsize=65536)
def same_given_name(one: str, other: str) -> bool:
    """True when the table holds both names (by spelling skeleton) in one group."""
    first = _INDEX.get(skeleton(one))
    return first is not None and not first.isdisjoint(_INDEX.get(skeleton(other), ()))


def is_abbreviation(short: str, full: str) -> bool:
    """ "Fco" for "Francisco", "Md" for "Mohammed", "Fdez" for "Fernandez".

    Same first and last letter, every letter of ``short`` in ``full`` in
    order, and at least two letters left out (the Spanish and Arabic written
    abbreviations of names seen in the acceptance data's names/variants.tsv).
    """
    if not 2 <= len(short) <= len(full) - 2 or short[0] != full[0] or short[-1] != full[-1]:
        return False
    letters = iter(full)
    return all(letter in letters for letter in short)
