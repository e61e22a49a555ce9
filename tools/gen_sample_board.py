#!/usr/bin/env python3
"""Test data for the project's sample board (sql/sample-board.sql), as SQL.

Initial load into a database created from sql/sample-board.sql:

    mariadb -e 'CREATE DATABASE sample'
    mariadb sample < sql/sample-board.sql
    python3 tools/gen_sample_board.py --ads 3000 --jobs 1000 |
        mariadb --default-character-set=utf8mb4 sample

Later activity on a loaded database (new, edited and soft-deleted ads and
jobs, all stamped with --now):

    python3 tools/gen_sample_board.py --mutate 'add=100,edit=50,delete=10' \\
        --now '2026-11-01 13:00:00' | mariadb --default-character-set=utf8mb4 sample

The output depends only on the options: same options, same bytes. Each table
has its own random stream, so --ads does not change the jobs. Python 3
standard library only. The shares of dirty data are the RATES below.
"""

import argparse
import datetime
import os
import random
import sys

# Share of rows that carry each kind of dirty data (the dirty data legacy boards
# hold), plus what a utf8mb4 board can hold.
RATES = {
    'ctrl': 0.01,         # ASCII control character (\x01 \x08 \x0b \x1f): listing.body, job.description
    'tags': 0.03,         # <b>, <br>, <br />, <script>alert(1)</script>: listing.body
    'script': 0.01,       # <script>alert(1)</script>: job.description
    'entity': 0.03,       # &quot; &amp; &#8470; &#128512; typed in: listing.title,
                          # listing.body, job.description; &quot;..&quot; round job.company
    'cdata_end': 0.01,    # the sequence ]]>: listing.body, job.description
    'spaces': 0.03,       # leading/trailing space, tab, \n, \r\n: titles, body, description
    'long': 0.01,         # a ~20 KB listing.body / job.description
    'no_phone': 0.03,     # listing.phone empty
    'hidden': 0.02,       # status 'hidden' (listing, job)
    'deleted': 0.02,      # status 'deleted' (listing, job)
    'days0': 0.01,        # listing.days = 0
    'no_expires': 0.03,   # job.expires NULL
    'no_contacts': 0.02,  # job.contacts empty
    'emoji': 0.03,        # real emoji (and in half of them CJK): listing.body, job.description
    'no_region': 0.01,    # listing.region_id = 0 (no such region row)
    'ref_long': 0.005,    # listing.ref of 40 letters and digits (longer than 32)
    'ref_punct': 0.005,   # listing.ref with punctuation, like 'AB-12/7'
}
# Ordinary (not dirty) shares.
HAS_EMAIL = 0.60      # ads with an e-mail address (40% empty)
HAS_ICQ = 0.12        # ads with an ICQ number (88% empty)
HAS_PHOTO = 0.45      # ads with a photo (55% empty)
DEMAND = 0.25         # ads of kind 'demand'; the rest are offers
EDITED = 0.20         # rows edited after they were added (hidden/deleted rows
                      # are also stamped later, when their status changed)
RESUME = 0.15         # job rows that are resumes (is_resume = 1)
UKRAINIAN = 0.35      # jobs written in Ukrainian; the rest in Russian

BATCH = 500           # rows per INSERT statement
SPAN_DAYS = 60        # dates fall in the SPAN_DAYS days before --now

CTRL_CHARS = ['\x01', '\x08', '\x0b', '\x1f']
ENTITIES = ['&quot;', '&amp;', '&#8470;', '&#128512;']
TAG_SNIPPETS = ['<b>Срочно!</b> ', '<br>', '<br />', '<script>alert(1)</script>']
EMOJI = ['😀', '👍', '🔥']
CJK = ['中文', '漢字', '日本語', '한국어', '𠮷野家']   # 𠮷 is outside the BMP too
ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
REF_PUNCT = ['%s-%d/%d', '%s_%d.%d', '%s-%d+%d', '%s/%d-%d']

# ---------------------------------------------------------------- vocabulary

REGIONS = [  # (name, weight); region_id is the position + 1
    ('Киев', 20), ('Харьков', 10), ('Одесса', 9), ('Днепр', 8),
    ('Запорожье', 5), ('Львов', 6), ('Кривой Рог', 3), ('Николаев', 3),
    ('Винница', 3), ('Херсон', 2), ('Полтава', 2), ('Чернигов', 2),
    ('Черкассы', 2), ('Житомир', 2), ('Сумы', 2), ('Хмельницкий', 2),
    ('Черновцы', 2), ('Ровно', 2), ('Ивано-Франковск', 2), ('Тернополь', 2),
    ('Луцк', 1), ('Ужгород', 1), ('Біла Церква', 1), ('Ірпінь', 1),
    ("Кам'янське", 1),
]
CITY_UA = {
    'Киев': 'Київ', 'Харьков': 'Харків', 'Одесса': 'Одеса', 'Днепр': 'Дніпро',
    'Запорожье': 'Запоріжжя', 'Львов': 'Львів', 'Кривой Рог': 'Кривий Ріг',
    'Николаев': 'Миколаїв', 'Винница': 'Вінниця', 'Полтава': 'Полтава',
    'Чернигов': 'Чернігів', 'Черкассы': 'Черкаси', 'Житомир': 'Житомир',
    'Сумы': 'Суми', 'Ровно': 'Рівне', 'Тернополь': 'Тернопіль',
    'Луцк': 'Луцьк', 'Ужгород': 'Ужгород', 'Херсон': 'Херсон',
    'Хмельницкий': 'Хмельницький', 'Черновцы': 'Чернівці',
    'Ивано-Франковск': 'Івано-Франківськ', 'Біла Церква': 'Біла Церква',
    'Ірпінь': 'Ірпінь', "Кам'янське": "Кам'янське",
}
CITY_RU = {'Біла Церква': 'Белая Церковь', 'Ірпінь': 'Ирпень', "Кам'янське": 'Каменское'}

# Ad categories: (offer verbs, demand verbs, items in the accusative case,
# sentences of the category, price range in hryvnias, sold as goods?).
AD_CATS = [
    (['Продам'], ['Куплю'],
     ['велосипед', 'горный велосипед Stels', 'детский велосипед',
      'беговую дорожку', 'гантели', 'палатку туристическую', 'лыжи',
      'коньки хоккейные', 'спортивный уголок'],
     ['Рама алюминиевая, 21 скорость.', 'Катался один сезон.',
      'Подходит на рост 160-180 см.', 'Хранился в квартире.'],
     (300, 15000), True),
    (['Продам'], ['Куплю'],
     ['ноутбук Lenovo', 'ноутбук Asus', 'iPhone 11', 'Samsung Galaxy S10',
      'телевизор LG 42"', 'монитор Dell', 'планшет', 'фотоаппарат Canon',
      'игровую приставку PS4', 'системный блок'],
     ['Полный комплект, коробка, документы.', 'Батарея держит хорошо.',
      'Экран без царапин, всегда был в чехле.', 'Могу проверить при вас.',
      'Память 128 Гб.'],
     (1000, 30000), True),
    (['Продам'], ['Куплю'],
     ['холодильник Атлант', 'стиральную машину Indesit', 'микроволновку',
      'пылесос', 'газовую плиту', 'бойлер на 80 л', 'кондиционер'],
     ['Работает отлично.', 'Доставка на ваш этаж за отдельную плату.',
      'Причина продажи - покупка новой техники.', 'Ширина 60 см.'],
     (500, 12000), True),
    (['Продам'], ['Куплю'],
     ['диван угловой', 'шкаф-купе', 'кухонный гарнитур', 'стол и 4 стула',
      'детскую кроватку', 'матрас 160х200', 'комод', 'компьютерный стол'],
     ['Разбираю сам.', 'Цвет - венге.', 'Механизм раскладки "дельфин".',
      'Размеры уточняйте по телефону.'],
     (300, 20000), True),
    (['Продам'], ['Куплю'],
     ['ВАЗ 2107', 'Daewoo Lanos 2008 г.', 'шины R15 зимние', 'диски R16',
      'аккумулятор 60 Ач', 'запчасти на Ford Focus', 'прицеп к легковому авто',
      'автомагнитолу'],
     ['Растаможен, один владелец.', 'Пробег 120 тыс. км.',
      'Двигатель и коробка в идеале.', 'Резина новая, протектор 7 мм.',
      'Возможен обмен на авто дешевле.'],
     (800, 250000), True),
    (['Продам', 'Сдам'], ['Куплю', 'Сниму'],
     ['1-комнатную квартиру', '2-комнатную квартиру', '3-комнатную квартиру',
      'комнату в общежитии', 'дом с участком', 'гараж', 'дачу', 'офис 40 кв.м'],
     ['Евроремонт, мебель, техника.', 'Рядом метро, магазины, школа.',
      'Без животных.', '5 этаж из 9.', 'Хозяева порядочные, без посредников.',
      'Автономное отопление.'],
     (150000, 3000000), False),
    (['Отдам'], ['Возьму'],
     ['котят в добрые руки', 'щенков', 'попугая с клеткой', 'аквариум 100 л',
      'детские вещи', 'книги'],
     ['К лотку приучены.', 'Возраст 2 месяца.', 'Только в хорошие руки.',
      'Забирать самовывозом.'],
     (0, 0), False),
    (['Предлагаю'], ['Ищу'],
     ['услуги сантехника', 'ремонт квартир под ключ', 'грузоперевозки',
      'репетитора по английскому', 'уборку квартир', 'ремонт компьютеров',
      'няню для ребенка'],
     ['Опыт работы более 10 лет.', 'Выезд мастера бесплатно.',
      'Работаю без выходных.', 'Гарантия на работы.', 'Рекомендации есть.'],
     (100, 5000), False),
    (['Продам'], ['Куплю'],
     ['детскую коляску', 'зимний комбинезон', 'куртку кожаную',
      'свадебное платье', 'школьную форму', 'сапоги женские 38 р.'],
     ['Носили один сезон.', 'Размер 46-48.', 'Все вопросы в личку.',
      'Состояние нового.'],
     (100, 8000), True),
]
RENT_VERBS = {'Сдам': 'Только на длительный срок.', 'Сниму': 'На длительный срок.'}
RENT_PRICES = (2000, 25000)   # hryvnias a month
TITLE_ENTITY_TAILS = [' &quot;как новый&quot;', ' &amp; аксессуары', ' &#8470;2', ' &#128512;']
TITLE_TAILS = [' б/у', ' недорого', ', срочно!', ' в отличном состоянии',
               ' (торг)', ' - выгодно', '!!!']
OFFER_SENTENCES = [
    'Торг уместен.', 'Без торга.', 'Звонить после 18:00.',
    'Пишите на почту или в ICQ.', 'Срочно, в связи с переездом.',
    'Все вопросы по телефону.', 'Смотреть можно в выходные.',
]
GOODS_OFFER_SENTENCES = [
    'Состояние отличное.', 'Состояние хорошее, есть небольшие царапины.',
    'Самовывоз.', 'Возможна доставка по городу.', 'Фото по запросу.',
    'Обмен не предлагать.', 'Пользовались мало, все работает.',
    'Перекупщиков просьба не беспокоить.', 'Есть документы и чек.',
    'Отправлю "Новой почтой" по предоплате.',
]
DEMAND_SENTENCES = [
    'Рассмотрю все варианты.', 'Предлагайте в пределах разумного.',
    'Звоните в любое время.', 'Посредников просьба не беспокоить.',
    'Желательно в нашем районе.',
]
GOODS_DEMAND_SENTENCES = [
    'Интересует только в хорошем состоянии.', 'Можно б/у.', 'Оплата сразу.',
    'Заберу сам.',
]
SENTENCES = {('offer', False): OFFER_SENTENCES,
             ('offer', True): OFFER_SENTENCES + GOODS_OFFER_SENTENCES,
             ('demand', False): DEMAND_SENTENCES,
             ('demand', True): DEMAND_SENTENCES + GOODS_DEMAND_SENTENCES}
NAMES = [(['Александр', 'Сергей', 'Андрей', 'Дмитрий', 'Владимир', 'Олег',
           'Игорь', 'Николай', 'Максим', 'Виктор'],
          ['Петрович', 'Иванович', 'Сергеевич', 'Николаевич']),
         (['Елена', 'Наталья', 'Ольга', 'Татьяна', 'Ирина', 'Светлана', 'Юлия',
           'Анна', 'Марина', 'Людмила'],
          ['Петровна', 'Николаевна', 'Александровна', 'Викторовна'])]
FIRST_NAMES = NAMES[0][0] + NAMES[1][0]
SURNAMES = ['Петренко', 'Шевченко', 'Коваленко', 'Бондаренко', 'Ткаченко',
            'Кравченко', 'Мельник', 'Бойко', 'Сидоренко', 'Литвиненко',
            'Руденко', 'Гончаренко', 'Коваль', 'Шевчук']
NICKS = ['vasya_k', 'Lena85', 'sergey-kiev', 'Admin', 'tanya_tanya', 'max2000',
         'Частное лицо', 'Агентство «Квартал»', 'хозяин']
MAIL_LOGINS = ['sergey', 'olga', 'vasya', 'alex', 'natali', 'ivan', 'lena',
               'dima', 'max', 'tanya', 'andrey', 'irina', 'oleg', 'kiev_user']
MAIL_DOMAINS = ['mail.ru', 'ukr.net', 'i.ua', 'gmail.com', 'yandex.ru',
                'bigmir.net', 'meta.ua', 'rambler.ru']
MOBILE_CODES = ['050', '063', '066', '067', '068', '073', '093', '095', '096',
                '097', '098', '099']

# Jobs, Russian and Ukrainian (Ukrainian texts use і ї є ґ and apostrophes).
JOB_TITLES = {
    'ru': ['Бухгалтер', 'Главный бухгалтер', 'Менеджер по продажам',
           'Продавец-консультант', 'Кассир', 'Водитель категории C',
           'Водитель-экспедитор', 'Грузчик', 'Охранник', 'Повар', 'Официант',
           'Бармен', 'Программист C++', 'Системный администратор',
           'Секретарь-референт', 'Оператор call-центра', 'Курьер', 'Сварщик',
           'Электрик', 'Медсестра', 'Учитель английского языка', 'Кладовщик',
           'Уборщица', 'Маркетолог', 'Юрист'],
    'ua': ['Бухгалтер', 'Головний бухгалтер', 'Менеджер з продажу',
           'Продавець-консультант', 'Касир', 'Водій категорії C', 'Вантажник',
           'Охоронець', 'Кухар', 'Офіціант', 'Програміст C++',
           'Системний адміністратор', 'Оператор кол-центру', "Кур'єр",
           'Зварювальник', 'Електрик', 'Медична сестра', 'Комірник',
           'Прибиральниця', 'Агроном-ґрунтознавець', 'Ґазетяр'],
}
JOB_TITLE_TAILS = {'ru': [' (без опыта)', ' на склад', ' в офис', ', 2 смены'],
                   'ua': [' (без досвіду)', ' на склад', ' в офіс', ', 2 зміни']}
COMPANY_FORMS = {'ru': ['ООО', 'ЧП', 'ФЛП', 'АО', ''],
                 'ua': ['ТОВ', 'ПП', 'ФОП', 'ПрАТ', '']}
COMPANY_NAMES = ['Ромашка', 'Стройинвест', 'Агроцентр', 'Теплодом', 'АвтоЛюкс',
                 'Техносвіт', 'Зоряна', 'Інтерлогістик', 'Бизнес-Консалт',
                 'Комфорт Сервис', 'Смачно', 'Надія', 'Ґалицькі смаки', 'Гарант-Плюс']
COMPANY_INFO = {
    'ru': ['Работаем на рынке с 2005 года.', 'Более 200 сотрудников.',
           'Динамично развивающаяся компания.',
           'Сеть магазинов в 12 городах Украины.',
           'Оптовая торговля строительными материалами.',
           'Дружный коллектив, стабильная зарплата.'],
    'ua': ['Працюємо на ринку з 2010 року.', 'Понад 150 працівників.',
           'Стабільна компанія з дружнім колективом.',
           'Мережа магазинів у 8 містах України.',
           'Виробництво та продаж меблів.', "Сім'я ґудзикових фабрик."],
}
JOB_SECTIONS = {  # headings for: duties, requirements, conditions
    'ru': ['Обязанности:', 'Требования:', 'Условия:'],
    'ua': ["Обов'язки:", 'Вимоги:', 'Умови:'],
}
JOB_LINES = {
    'ru': [['работа с клиентами', 'ведение документации', 'прием и выдача товара',
            'выполнение заданий руководителя', 'контроль остатков на складе',
            'консультирование покупателей'],
           ['опыт работы от 1 года', 'ответственность, пунктуальность',
            'знание ПК (Word, Excel, 1С)', 'без вредных привычек',
            'водительское удостоверение', 'высшее образование'],
           ['официальное трудоустройство', 'график 5/2 с 9:00 до 18:00',
            'своевременная выплата зарплаты', 'обучение за счет компании',
            'развозка', 'питание']],
    'ua': [['робота з клієнтами', 'ведення документації', 'приймання товару',
            'консультування покупців', 'контроль залишків на складі',
            "виконання доручень керівника, обов'язкова звітність"],
           ['досвід роботи від 1 року', 'відповідальність', 'знання ПК',
            'вміння працювати в команді', 'посвідчення водія',
            'ґрунтовні знання 1С', 'знання української мови'],
           ['офіційне працевлаштування', 'графік 5/2', 'стабільна заробітна плата',
            'навчання за рахунок компанії', 'дружній колектив', 'їжа за рахунок фірми']],
}
RESUME_TEXT = {
    'ru': ['Опыт работы 5 лет.', 'Ищу работу с официальным оформлением.',
           'Рассмотрю частичную занятость.', 'Образование высшее.',
           'Готов к переезду.'],
    'ua': ['Досвід роботи 3 роки.', 'Шукаю роботу з офіційним оформленням.',
           'Розгляну часткову зайнятість.', 'Освіта вища.',
           'Є власний автомобіль, готовий до відряджень.'],
}
SALARY_WORDS = {'ru': ('от', 'договорная'), 'ua': ('від', 'договірна')}

# ---------------------------------------------------------------- SQL helpers


def q(s):
    """SQL string literal, escaped as mysql_real_escape_string does.

    Other control characters (\\x01 \\x08 \\x0b \\x1f) stay raw: the mariadb
    client passes them through byte for byte inside a quoted string."""
    return "'" + (s.replace('\\', '\\\\').replace("'", "\\'")
                  .replace('\n', '\\n').replace('\r', '\\r')
                  .replace('\0', '\\0').replace('\x1a', '\\Z')) + "'"


EPOCH = datetime.datetime(1970, 1, 1)


def parse_dt(s):
    return int((datetime.datetime.strptime(s, '%Y-%m-%d %H:%M:%S') - EPOCH)
               .total_seconds())


def day_str(ts):
    return (EPOCH + datetime.timedelta(seconds=ts)).strftime('%Y-%m-%d')


def dt(ts):
    """Seconds since 1970 (site local time, no zone) -> quoted DATETIME."""
    return "'%s'" % (EPOCH + datetime.timedelta(seconds=ts)).strftime('%Y-%m-%d %H:%M:%S')


def spread(rng, n, start, end):
    """n sorted timestamps in [start, end): later ids were added later."""
    return sorted(rng.randrange(start, end) for _ in range(n))


def later(rng, ts, now, share):
    """A time between ts and now for `share` of the rows, else ts itself."""
    return ts + int(rng.random() * (now - ts)) if rng.random() < share else ts


def status(rng):
    x = rng.random()
    if x < RATES['hidden']:
        return 'hidden'
    if x < RATES['hidden'] + RATES['deleted']:
        return 'deleted'
    return 'active'


def insert(out, table, cols, rows):
    """Multi-row INSERTs of BATCH rows; rows yields '(...)' strings."""
    head = 'INSERT INTO %s (%s) VALUES\n' % (table, ', '.join(cols))
    batch = []
    for r in rows:
        batch.append(r)
        if len(batch) == BATCH:
            out.write(head + ',\n'.join(batch) + ';\n')
            batch = []
    if batch:
        out.write(head + ',\n'.join(batch) + ';\n')


def dirty_text(rng, text):
    """Adds the dirty data kinds common to listing.body and job.description."""
    r = rng.random
    if r() < RATES['ctrl']:
        i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(CTRL_CHARS) + text[i:]
    if r() < RATES['entity']:
        i = text.rfind(' ', 0, rng.randrange(len(text) + 1)) + 1
        text = text[:i] + rng.choice(ENTITIES) + ' ' + text[i:]
    if r() < RATES['cdata_end']:
        text += ' ]]> '
    if r() < RATES['emoji']:
        extra = ' ' + rng.choice(EMOJI) * rng.randrange(1, 4)
        if r() < 0.5:
            extra = ' ' + rng.choice(CJK) + extra
        i = text.find('.') + 1 if r() < 0.5 else 0
        i = i or len(text)
        text = text[:i] + extra + text[i:]
    if r() < RATES['spaces']:
        text = rng.choice([' ', '  ', '\t', '\n']) + text + rng.choice([' ', '\n', ' \r\n'])
    return text


# ---------------------------------------------------------------- listing

LISTING_COLS = ['ref', 'kind', 'title', 'body', 'author', 'region_id', 'phone',
                'email', 'icq', 'photo', 'added', 'days', 'updated', 'status']
REGION_PICK = [i for i, (_, w) in enumerate(REGIONS, 1) for _ in range(w)]


def ref(rng):
    x = rng.random()
    if x < RATES['ref_long']:
        return ''.join(rng.choice(ALNUM) for _ in range(40))
    if x < RATES['ref_long'] + RATES['ref_punct']:
        letters = rng.choice(ALNUM[:26]) + rng.choice(ALNUM[:26])
        return rng.choice(REF_PUNCT) % (letters, rng.randrange(1, 100), rng.randrange(1, 10))
    return ''.join(rng.choice(ALNUM) for _ in range(rng.randrange(10, 17)))


def phone(rng):
    code = rng.choice(MOBILE_CODES)
    n = '%07d' % rng.randrange(10 ** 7)
    fmt = rng.randrange(5)
    if fmt == 0:
        return '%s-%s-%s-%s' % (code, n[:3], n[3:5], n[5:])
    if fmt == 1:
        return '+38 (%s) %s-%s-%s' % (code, n[:3], n[3:5], n[5:])
    if fmt == 2:
        return code + n
    if fmt == 3:
        return '(044) %s-%s-%s' % (n[:3], n[3:5], n[5:])
    return '8-%s-%s-%s-%s' % (code, n[:3], n[3:5], n[5:])


def author(rng):
    first, patronymics = rng.choice(NAMES)
    name = rng.choice(first)
    x = rng.random()
    if x < 0.45:
        return name
    if x < 0.60:
        return name + ' ' + rng.choice(patronymics)
    if x < 0.75:
        return name + ' ' + rng.choice(SURNAMES)[0] + '.'
    if x < 0.85:
        return rng.choice(SURNAMES) + ' ' + name[0] + '.'
    return rng.choice(NICKS)


def ad_body(rng, kind, verb, cat, long_body):
    """1-3 sentences (the price counts as one)."""
    _, _, _, extra, (lo, hi), goods = cat
    pool = extra + SENTENCES[kind, goods]
    n = rng.randrange(1, 4)
    price = None
    if verb in RENT_VERBS:
        lo, hi = RENT_PRICES
    if hi and n > 1 and rng.random() < 0.7:
        n -= 1
        p = rng.randrange(lo, hi) // 50 * 50 + 50
        month = ' в месяц' if verb in RENT_VERBS else ''
        if kind == 'demand':
            price = 'Бюджет до %d грн.%s' % (p, month)
        elif rng.random() < 0.15:
            price = 'Цена %d$%s.' % (p // 40 + 1, month)
        elif rng.random() < 0.1:
            price = 'Цена договорная.'
        else:
            price = 'Цена %d грн.%s' % (p, month)
    parts = rng.sample(pool, n)
    text = ' '.join(parts)
    if price:
        text += '\n' + price if rng.random() < 0.2 else ' ' + price
    if long_body:
        more = [text]
        size = len(text)
        while size < 20480:
            s = ' '.join(rng.choices(pool, k=8))
            more.append(s)
            size += len(s) + 1
        text = '\n'.join(more)
    return text


def add_tag(rng, text):
    tag = rng.choice(TAG_SNIPPETS)
    if tag.startswith('<b>'):
        return tag + text                        # bold prefix
    if tag.startswith('<br'):
        if '. ' in text:
            return text.replace('. ', '.' + tag, 1)  # line break between sentences
        return text + tag
    return text + tag                            # script at the end


def listing_row(rng, added, updated, now):
    """SQL values of one ad (without id), in LISTING_COLS order."""
    r = rng.random
    cat = rng.choice(AD_CATS)
    kind = 'demand' if r() < DEMAND else 'offer'
    verb = rng.choice(cat[0] if kind == 'offer' else cat[1])
    title = verb + ' ' + rng.choice(cat[2])
    if r() < 0.3:
        title += rng.choice(TITLE_TAILS)
    if r() < 0.02:
        title = title.upper()
    body = ad_body(rng, kind, verb, cat, r() < RATES['long'])
    if r() < RATES['tags']:
        body = add_tag(rng, body)
    body = dirty_text(rng, body)
    if r() < RATES['entity']:
        title += rng.choice(TITLE_ENTITY_TAILS)
    if r() < RATES['spaces']:
        title = rng.choice([' ', '\t']) + title + rng.choice(['  ', '\n'])
    st = status(rng)
    if st != 'active' and updated == added:
        updated = added + int(r() * (now - added))
    tel = '' if r() < RATES['no_phone'] else phone(rng)
    if tel and r() < 0.05:
        tel += ', ' + phone(rng)
    email = ('%s%d@%s' % (rng.choice(MAIL_LOGINS), rng.randrange(100),
                          rng.choice(MAIL_DOMAINS))) if r() < HAS_EMAIL else ''
    icq = str(rng.randrange(100000, 699999999)) if r() < HAS_ICQ else ''
    photo = ('%08x.jpg' % rng.getrandbits(32)) if r() < HAS_PHOTO else ''
    days = 0 if r() < RATES['days0'] else rng.choice([7, 14, 30, 30, 30, 60, 90])
    region = 0 if r() < RATES['no_region'] else rng.choice(REGION_PICK)
    return "%s,'%s',%s,%s,%s,%d,%s,%s,%s,%s,%s,%d,%s,'%s'" % (
        q(ref(rng)), kind, q(title), q(body), q(author(rng)), region, q(tel),
        q(email), q(icq), q(photo), dt(added), days, dt(updated), st)


def gen_regions(out):
    insert(out, 'region', ['region_id', 'name'],
           ('(%d,%s)' % (i, q(name)) for i, (name, _) in enumerate(REGIONS, 1)))


def gen_listings(out, rng, n, now):
    start = now - SPAN_DAYS * 86400
    rows = ('(%d,%s)' % (i, listing_row(rng, added, later(rng, added, now, EDITED), now))
            for i, added in enumerate(spread(rng, n, start, now), 1))
    insert(out, 'listing', ['id'] + LISTING_COLS, rows)


# ---------------------------------------------------------------- job

JOB_COLS = ['is_resume', 'title', 'regions', 'salary', 'company', 'company_info',
            'description', 'contacts', 'expires', 'created', 'updated', 'status']


def job_description(rng, lang, resume, long_body):
    if resume:
        return ' '.join(rng.sample(RESUME_TEXT[lang], 3))
    heads, lines = JOB_SECTIONS[lang], JOB_LINES[lang]
    if rng.random() < 0.6:  # HTML from the site's editor
        parts = ['<p><b>%s</b></p><ul>%s</ul>' % (h, ''.join(
            '<li>%s</li>' % s for s in rng.sample(ls, 3))) for h, ls in zip(heads, lines)]
        text = '\n'.join(parts)
    else:                   # older rows: plain text
        text = '\n'.join('%s %s.' % (h, ', '.join(rng.sample(ls, 3)))
                         for h, ls in zip(heads, lines))
    if rng.random() < RATES['script']:
        text += '<script>alert(1)</script>'
    if long_body:
        more = [text]
        while sum(map(len, more)) < 20480:
            more.append('<p>' + ', '.join(rng.sample(sum(lines, []), 8)) + '.</p>')
        text = '\n'.join(more)
    return text


def job_row(rng, created, updated, now):
    """SQL values of one job (without id), in JOB_COLS order."""
    r = rng.random
    lang = 'ua' if r() < UKRAINIAN else 'ru'
    resume = r() < RESUME
    title = rng.choice(JOB_TITLES[lang])
    if r() < 0.2:
        title += rng.choice(JOB_TITLE_TAILS[lang])
    names = [n for n, _ in rng.sample(REGIONS, rng.choice([1, 1, 1, 2, 3]))]
    regions = ', '.join(CITY_UA[n] if lang == 'ua' else CITY_RU.get(n, n) for n in names)
    x = r()
    amount = rng.randrange(1500, 30000) // 500 * 500
    if x < 0.2:
        salary = ''
    elif x < 0.7:
        salary = '%d грн.' % amount
    elif x < 0.8:
        salary = '%d$' % (amount // 40 // 50 * 50 + 100)
    elif x < 0.95:
        salary = '%s %d грн.' % (SALARY_WORDS[lang][0], amount)
    else:
        salary = SALARY_WORDS[lang][1]
    if resume:
        company = info = ''
    else:
        form = rng.choice(COMPANY_FORMS[lang])
        quote = '&quot;%s&quot;' if r() < RATES['entity'] else rng.choice(['«%s»', '"%s"'])
        company = (form + ' ' + quote % rng.choice(COMPANY_NAMES)).strip()
        info = ' '.join(rng.sample(COMPANY_INFO[lang], 2))
    description = dirty_text(rng, job_description(rng, lang, resume, r() < RATES['long']))
    if r() < RATES['spaces']:
        title = ' ' + title + rng.choice([' ', '\t', '\r\n'])
    if r() < RATES['no_contacts']:
        contacts = ''
    else:
        contacts = '%s %s, %s' % ('Тел.' if lang == 'ru' else 'Тел.:', phone(rng),
                                  rng.choice(FIRST_NAMES))
        if r() < 0.4:
            contacts += '\nE-mail: %s%d@%s' % (rng.choice(MAIL_LOGINS),
                                             rng.randrange(100), rng.choice(MAIL_DOMAINS))
    if r() < RATES['no_expires']:
        expires = 'NULL'
    else:
        expires = "'%s'" % day_str(created + rng.choice([14, 30, 30, 60]) * 86400)
    st = status(rng)
    if st != 'active' and updated == created:
        updated = created + int(r() * (now - created))
    return "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,'%s'" % (
        resume, q(title), q(regions), q(salary), q(company), q(info), q(description),
        q(contacts), expires, dt(created), dt(updated), st)


def gen_jobs(out, rng, n, now):
    start = now - SPAN_DAYS * 86400
    rows = ('(%d,%s)' % (i, job_row(rng, c, later(rng, c, now, EDITED), now))
            for i, c in enumerate(spread(rng, n, start, now), 1))
    insert(out, 'job', ['id'] + JOB_COLS, rows)


# ---------------------------------------------------------------- documents

DOC_CATEGORIES = [
    '资料分类 > 教育资料 > 高等教育', '资料分类 > 教育资料 > 中学教育',
    '资料分类 > 办公文档 > 合同范本', '资料分类 > 办公文档 > 工作总结',
    '资料分类 > 专业资料 > 计算机', '资料分类 > 专业资料 > 医药卫生',
]
DOC_SUBJECTS = ['高等数学', '线性代数', '大学英语', '数据结构', '计算机网络', '有机化学',
                '会计学基础', '护理学', '建筑施工']
DOC_PATTERNS = [('{year}年{subject}期末考试试题及答案', '文档类'), ('{subject}课件（第{n}章）', '文档类'),
                ('{subject}复习资料汇总', '文档类'), ('{subject}实验数据', '工具类'),
                ('{subject}安装程序', '软件类')]
# Extensions: the seed's own, families, and ones it does not know (其他).
DOC_EXTS = ['pdf', 'pdf', 'doc', 'docx', 'docx', 'ppt', 'pptx', 'xls', 'xlsx', 'txt',
            'rtf', 'zip', 'rar', '7z', 'exe', 'jpg', 'png', 'chm', 'html', 'swf',
            'PDF', 'odt', 'epub', '']
DOC_SUMMARY = ['内容完整，适合复习使用。', '包含详细答案解析。', '仅供学习参考。', '欢迎下载！',
               '排版清晰，可直接打印。', '整理不易，请给好评。']
DOC_COMMENTS = ['很有用，谢谢分享！', '资料很全，已下载。', '答案有几处错误，第三题应该是B。',
                '求更新下一章', '好评', '不错，推荐', '格式有点乱', '下载后打不开？']
DOC_LOGINS = ['zhangwei', 'liuyang', 'wangfang', 'lina', 'chenjie', '学霸小明', '考研党', '资料君']
DOC_HTML = ['<b>精品</b>', '&quot;推荐&quot;', '<br>', '<script>alert(1)</script>', '&amp;']
DOC_TAG_NOISE = [' , ', ',,', ' ，', '、 ', '  ']
DOC_COMMENT_CAP_PLUS = 25   # comments of a document with more than the feed's cap (20)


def doc_text(rng, text, html_rate=0.05):
    """The dirty data kinds of the document library's text."""
    r = rng.random
    if r() < RATES['emoji']:
        text = rng.choice(EMOJI) + text
    if r() < RATES['cdata_end']:
        text += ' ]]> '
    if r() < RATES['ctrl']:
        text += rng.choice(CTRL_CHARS)
    if r() < html_rate:
        text += rng.choice(DOC_HTML)
    if r() < RATES['spaces']:
        text = ' ' + text + rng.choice([' ', '\n', '\r\n'])
    return text


def gen_documents(out, rng, n, now):
    """member, document and document_comment rows (utf8mb4, Chinese)."""
    r = rng.random
    n_members = max(20, n // 5)
    insert(out, 'member', ['id', 'login'],
           ('(%d,%s)' % (i, q(doc_text(rng, '%s%d' % (rng.choice(DOC_LOGINS), i), 0.02)))
            for i in range(1, n_members + 1)))
    start = now - SPAN_DAYS * 86400
    docs, comments = [], []
    for i, up in enumerate(spread(rng, n, start, now), 1):
        pattern, genre = rng.choice(DOC_PATTERNS)
        subject = rng.choice(DOC_SUBJECTS)
        year = rng.randrange(2015, 2027)
        title = doc_text(rng, pattern.format(year=year, subject=subject, n=rng.randrange(1, 13)))
        summary = '' if r() < 0.03 else doc_text(rng, '本文档为《%s》，共%d页。%s' % (
            title, rng.randrange(2, 120), ''.join(rng.sample(DOC_SUMMARY, 2))), 0.1)
        category = '' if r() < 0.005 else rng.choice(DOC_CATEGORIES)
        x = r()
        if x < 0.01:
            size = rng.randrange(0, 10)           # a few bytes: 0.01KB
        elif x < 0.02:
            size = rng.randrange(10, 1024)        # bytes
        else:
            size = min(2 << 30, max(1024, int(rng.lognormvariate(12.5, 2))))
        tags = ','.join(dict.fromkeys([subject, '%d年' % year] + rng.sample(['期末', '复习', '考研', '免费', '精品'], 2)))
        if r() < 0.1:
            tags = rng.choice(DOC_TAG_NOISE) + tags.replace(',', rng.choice(DOC_TAG_NOISE), 1) + rng.choice(DOC_TAG_NOISE)
        elif r() < 0.05:
            tags = ''
        member = rng.randrange(1, n_members + 1) if r() > 0.03 else n_members + rng.randrange(1, 1000)
        stored = 0 if r() < 0.01 else 1
        mirrors = '' if r() > 0.05 else '|'.join(
            'https://mirror%d.example/d/%d' % (k, i) for k in range(1, rng.randrange(2, 4)))
        downloads = int(rng.lognormvariate(3, 1.6))
        votes = rng.randrange(0, 30) if downloads > 5 else 0
        updated = later(rng, up, now, EDITED)
        st = status(rng)
        docs.append('(%d,%s,%s,%s,%s,%s,%d,%d,%d,%d,%s,%s,%s,%d,%d,%d,%d,%d,%d,%s,\'%s\')' % (
            i, q(category), q(title), q(summary), q(genre), q(rng.choice(DOC_EXTS)), size,
            rng.choice([0, 0, 1, 2, 5, 10]), member, stored, q(mirrors), dt(up), dt(updated),
            downloads, downloads // rng.randrange(5, 20), downloads // rng.randrange(3, 10),
            downloads // rng.randrange(10, 40), sum(rng.choices([1, 3, 4, 4, 5, 5], k=votes)),
            votes, q(tags), st))
        k = DOC_COMMENT_CAP_PLUS + rng.randrange(0, 6) if r() < 0.01 else rng.choice([0, 0, 1, 1, 2, 3])
        for _ in range(k):
            author = rng.randrange(1, n_members + 1) if r() > 0.03 else n_members + rng.randrange(1, 1000)
            comments.append((i, author, doc_text(rng, rng.choice(DOC_COMMENTS), 0.05),
                             up + int(r() * (now - up))))
    insert(out, 'document', ['id', 'category', 'title', 'summary', 'genre', 'ext', 'size_bytes', 'coins',
                             'member_id', 'stored', 'mirrors', 'uploaded', 'updated', 'downloads',
                             'favorites', 'likes', 'shares', 'rating_sum', 'rating_count', 'tags',
                             'status'], docs)
    insert(out, 'document_comment', ['id', 'document_id', 'member_id', 'body', 'created'],
           ('(%d,%d,%d,%s,%s)' % (c, d, m, q(b), dt(t)) for c, (d, m, b, t) in enumerate(comments, 1)))


# ---------------------------------------------------------------- later activity

def mutate(out, seed, now, counts):
    """New rows stamped now, edits of body/description, soft deletes.

    For listing and for job alike, one transaction: @max_id = MAX(id) is taken
    first, then `add` rows are inserted (added/created = updated = now, ids
    from AUTO_INCREMENT), then `edit` updates set body/description and
    updated = now, and `delete` updates set status = 'deleted' and updated =
    now, each on the row id = CEIL(@max_id * F) for a fraction F from the
    random stream (seed, now), skipping rows already deleted: targets are
    rows that existed before this run, the same ones for the same database,
    seed and --now; the edit/delete counts are upper bounds.
    """
    rng = random.Random('%s:mutate:%d' % (seed, now))
    stamp = dt(now)
    for table, cols, row, text_col in (
            ('listing', LISTING_COLS, listing_row, 'body'),
            ('job', JOB_COLS, job_row, 'description')):
        out.write('START TRANSACTION;\nSET @max_id = (SELECT MAX(id) FROM %s);\n' % table)
        insert(out, table, cols, ('(%s)' % row(rng, now, now, now)
                                  for _ in range(counts['add'])))
        for _ in range(counts['edit']):
            if table == 'listing':
                cat = rng.choice(AD_CATS)
                new_text = rng.choice(['Цена снижена! ', 'UPD: ', '']) + \
                    ad_body(rng, 'offer', cat[0][0], cat, False)
            else:
                new_text = job_description(rng, rng.choice(['ru', 'ua']), False, False)
            new_text = dirty_text(rng, new_text)
            out.write("UPDATE %s SET %s = %s, updated = %s WHERE id = CEIL(@max_id * %.6f)"
                      " AND status <> 'deleted';\n"
                      % (table, text_col, q(new_text), stamp, rng.random()))
        for _ in range(counts['delete']):
            out.write("UPDATE %s SET status = 'deleted', updated = %s"
                      " WHERE id = CEIL(@max_id * %.6f) AND status <> 'deleted';\n"
                      % (table, stamp, rng.random()))
        out.write('COMMIT;\n')


# ---------------------------------------------------------------- main

def parse_now(s):
    try:
        return parse_dt(s)
    except ValueError:
        raise argparse.ArgumentTypeError("expected 'YYYY-MM-DD HH:MM:SS', got %r" % s)


def parse_mutate(spec):
    counts = {'add': 0, 'edit': 0, 'delete': 0}
    for part in spec.split(','):
        key, _, value = part.partition('=')
        if key.strip() not in counts or not value.strip().isdigit():
            raise argparse.ArgumentTypeError("expected 'add=N,edit=N,delete=N', got %r" % spec)
        counts[key.strip()] = int(value)
    return counts


def count(s):
    n = int(s)
    if n < 0:
        raise argparse.ArgumentTypeError('must be >= 0')
    return n


EPILOG = """\
--mutate prints, for listing and job, in one transaction each: `add` new rows
stamped --now (added/created and updated; ids from AUTO_INCREMENT), `edit`
UPDATEs of body/description with updated = --now, and `delete` soft deletes
(status = 'deleted', updated = --now). Edit and delete targets are picked in
SQL: @max_id = (SELECT MAX(id) FROM table) before the inserts, and each
target is id = CEIL(@max_id * F), F a fraction drawn from (--seed, --now);
rows already deleted are skipped, so those two counts are upper bounds.
Same database + same options = same changes.

Load with:  mariadb --default-character-set=utf8mb4 DB
"""


def main():
    p = argparse.ArgumentParser(
        description='Prints SQL test data for the sample board (sql/sample-board.sql).',
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--ads', type=count, default=3000, help='listing rows (default 3000)')
    p.add_argument('--jobs', type=count, default=1000, help='job rows (default 1000)')
    p.add_argument('--docs', type=count, default=0,
                   help='document rows, with members and comments (default 0)')
    p.add_argument('--seed', default='1', help='random seed (default 1)')
    p.add_argument('--now', type=parse_now, default='2026-11-01 12:00:00',
                   help="'YYYY-MM-DD HH:MM:SS' (default 2026-11-01 12:00:00); "
                        "dates fall in the %d days before it" % SPAN_DAYS)
    p.add_argument('--mutate', type=parse_mutate, metavar="'add=N,edit=N,delete=N'",
                   help='print later activity for a loaded database instead (see below)')
    a = p.parse_args()
    out = sys.stdout
    out.reconfigure(encoding='utf-8', newline='\n')
    out.write('SET NAMES utf8mb4;\n')
    if a.mutate:
        opts = "--mutate 'add=%(add)d,edit=%(edit)d,delete=%(delete)d'" % a.mutate
    else:
        opts = '--ads %d --jobs %d --docs %d' % (a.ads, a.jobs, a.docs)
    out.write("-- Sample board test data: gen_sample_board.py %s --seed %s --now '%s'\n"
              % (opts, a.seed.replace('\n', ' '), dt(a.now).strip("'")))
    if a.mutate:
        mutate(out, a.seed, a.now, a.mutate)
        return
    gen_regions(out)
    # Each table has its own random stream: --ads does not change the jobs.
    gen_listings(out, random.Random('%s:listing' % a.seed), a.ads, a.now)
    gen_jobs(out, random.Random('%s:job' % a.seed), a.jobs, a.now)
    gen_documents(out, random.Random('%s:document' % a.seed), a.docs, a.now)


if __name__ == '__main__':
    try:
        main()
    except BrokenPipeError:  # the reader stopped early (e.g. `| head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
