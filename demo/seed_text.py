"""The words seed_newsroom builds its fictional stories from, written for this project.

Every list pairs the Arabic with its English so a story can carry both editions. The
names are invented combinations of common given and family names; none describes a
real person or event.
"""

SECTIONS = [
    ("seed-politics", "سياسة", "Politics"),
    ("seed-economy", "اقتصاد", "Economy"),
    ("seed-culture", "ثقافة", "Culture"),
    ("seed-sport", "رياضة", "Sport"),
    ("seed-technology", "تقنية", "Technology"),
    ("seed-health", "صحة", "Health"),
    ("seed-environment", "بيئة", "Environment"),
    ("seed-cities", "مدن", "Cities"),
    ("seed-education", "تعليم", "Education"),
    ("seed-science", "علوم", "Science"),
    ("seed-travel", "سفر", "Travel"),
    ("seed-world", "العالم", "World"),
]

CITIES = [
    ("دبي", "Dubai"),
    ("القاهرة", "Cairo"),
    ("بيروت", "Beirut"),
    ("عمّان", "Amman"),
    ("الرباط", "Rabat"),
    ("تونس", "Tunis"),
    ("الدوحة", "Doha"),
    ("مسقط", "Muscat"),
    ("بغداد", "Baghdad"),
    ("الكويت", "Kuwait City"),
    ("جدة", "Jeddah"),
    ("الإسكندرية", "Alexandria"),
    ("طرابلس", "Tripoli"),
    ("وهران", "Oran"),
    ("أربيل", "Erbil"),
    ("صلالة", "Salalah"),
]

# Who acts in a headline; {city} is filled in.
ACTORS = [
    ("بلدية {city}", "{city} council"),
    ("جامعة {city}", "{city} university"),
    ("غرفة تجارة {city}", "the {city} chamber of commerce"),
    ("مستشفى {city} العام", "{city} general hospital"),
    ("نادي {city} الرياضي", "{city} sports club"),
    ("سكان {city}", "residents of {city}"),
    ("مكتبة {city} العامة", "the {city} public library"),
    ("ميناء {city}", "the port of {city}"),
]

VERBS = [
    ("تعلن", "announces"),
    ("تطلق", "launches"),
    ("تؤجل", "postpones"),
    ("تناقش", "debates"),
    ("تراجع", "reviews"),
    ("توسّع", "expands"),
    ("تدشّن", "opens"),
    ("تنتقد", "questions"),
]

# (Arabic, English, section slug, tag words)
TOPICS = [
    ("خطة لتوسيع شبكة النقل العام", "a plan to widen public transport", "seed-cities",
     ("نقل", "transport")),
    ("مهرجاناً للكتاب", "a book festival", "seed-culture", ("كتب", "books")),
    ("مشروعاً لتحلية المياه", "a desalination project", "seed-environment",
     ("مياه", "water")),
    ("مبادرة لدعم الشركات الناشئة", "an initiative for start-ups", "seed-economy",
     ("شركات ناشئة", "start-ups")),
    ("حملة تطعيم موسمية", "a seasonal vaccination drive", "seed-health",
     ("لقاحات", "vaccines")),
    ("بطولة إقليمية لكرة السلة", "a regional basketball tournament", "seed-sport",
     ("كرة السلة", "basketball")),
    ("معرضاً للفن المعاصر", "a contemporary art show", "seed-culture",
     ("فنون", "art")),
    ("برنامجاً لإعادة تدوير النفايات", "a recycling programme", "seed-environment",
     ("تدوير", "recycling")),
    ("قانوناً جديداً للإيجارات", "a new tenancy law", "seed-politics",
     ("سكن", "housing")),
    ("مركزاً لأبحاث الذكاء الاصطناعي", "an AI research centre", "seed-technology",
     ("ذكاء اصطناعي", "artificial intelligence")),
    ("موسماً سياحياً شتوياً", "a winter tourist season", "seed-travel",
     ("سياحة", "tourism")),
    ("برنامجاً لتدريب المعلمين", "a teacher training scheme", "seed-education",
     ("مدارس", "schools")),
    ("مرصداً فلكياً صغيراً", "a small observatory", "seed-science",
     ("فلك", "astronomy")),
    ("ميزانية العام المقبل", "next year's budget", "seed-economy",
     ("ميزانية", "budget")),
    ("انتخابات المجلس المحلي", "the local council election", "seed-politics",
     ("انتخابات", "elections")),
    ("خطاً بحرياً للشحن", "a shipping route", "seed-world", ("موانئ", "ports")),
    ("تطبيقاً لحجز المواعيد الطبية", "an app for doctors' appointments",
     "seed-technology", ("تطبيقات", "apps")),
    ("سباقاً للدراجات الهوائية", "a cycling race", "seed-sport",
     ("دراجات", "cycling")),
    ("حديقة عامة على الواجهة البحرية", "a seafront park", "seed-cities",
     ("حدائق", "parks")),
    ("منحاً دراسية للطلاب", "student scholarships", "seed-education",
     ("منح", "scholarships")),
    ("دراسة عن جودة الهواء", "a study of air quality", "seed-science",
     ("هواء", "air quality")),
    ("رحلات جوية جديدة", "new flights", "seed-travel", ("طيران", "aviation")),
    ("اتفاقاً للتبادل التجاري", "a trade agreement", "seed-world",
     ("تجارة", "trade")),
    ("عيادات متنقلة في القرى", "mobile clinics for villages", "seed-health",
     ("عيادات", "clinics")),
]  # fmt: skip

TAILS = [
    ("هذا الأسبوع", "this week"),
    ("قبل نهاية العام", "before the year ends"),
    ("بعد أشهر من التأخير", "after months of delay"),
    ("رغم اعتراضات السكان", "despite residents' objections"),
    ("بتمويل قدره {n} مليون", "with {n} million in funding"),
    ("للمرة الأولى منذ {n} عاماً", "for the first time in {n} years"),
    ("وسط إقبال واسع", "to wide interest"),
    ("في خطوة مفاجئة", "in a surprise move"),
]

KICKERS = [
    ("خاص", "Exclusive"),
    ("تحليل", "Analysis"),
    ("تقرير", "Report"),
    ("متابعة", "Follow-up"),
    ("", ""),
    ("", ""),
]

# Body paragraphs: {city}, {topic}, {person}, {n}, {m} are filled in.
PARAGRAPHS = [
    (
        "قال مسؤولون في {city} إن {topic} سيخدم نحو {n} ألف شخص، وإن العمل فيه يبدأ "
        "خلال {m} أسابيع إذا اكتملت الموافقات.",
        "Officials in {city} said {topic} would serve about {n} thousand people, with "
        "work starting within {m} weeks once approvals are in.",
    ),
    (
        "وأوضح {person} أن الفكرة نوقشت طويلاً قبل أن تصل إلى صيغتها الحالية، مضيفاً "
        "أن الأرقام ستُراجع كل {m} أشهر.",
        "{person} explained that the idea had been discussed at length before taking "
        "its present form, adding that the figures would be reviewed every {m} months.",
    ),
    (
        "ويرى منتقدون أن الكلفة البالغة {n} مليوناً مرتفعة، ويطالبون بنشر تفاصيل "
        "العقود قبل التنفيذ.",
        "Critics consider the {n} million cost high and want the contracts published "
        "before the work begins.",
    ),
    (
        "وفي جولة في أحياء {city}، قال عدد من السكان إنهم سمعوا بالخطة من جيرانهم "
        "قبل أي إعلان رسمي.",
        "On a walk through {city}, several residents said they had heard of the plan "
        "from neighbours before any official word.",
    ),
    (
        "وتشير أرقام العام الماضي إلى زيادة بنسبة {m} في المئة في الطلب، وهو ما "
        "دفع الجهات المعنية إلى التحرك.",
        "Last year's figures show demand rising by {m} percent, which pushed the "
        "authorities to act.",
    ),
    (
        "ومن المقرر أن يعرض {person} التفاصيل في اجتماع مفتوح الشهر المقبل، على أن "
        "تُجمع الملاحظات عبر موقع إلكتروني.",
        "{person} is due to present the details at an open meeting next month, with "
        "comments gathered through a website.",
    ),
    (
        "وقالت مصادر مطلعة إن {n} شركة أبدت اهتماماً، بينها شركات صغيرة من {city} "
        "ومن خارجها.",
        "Sources familiar with the matter said {n} companies had shown interest, "
        "including small firms from {city} and beyond.",
    ),
    (
        "ولم يتضح بعد كيف سيؤثر {topic} على الحركة في وسط المدينة خلال الأشهر الأولى.",
        "It is not yet clear how {topic} will affect traffic in the city centre in "
        "its first months.",
    ),
]

GIVEN_NAMES = [
    ("سامي", "Sami"), ("ليلى", "Layla"), ("كريم", "Karim"), ("نور", "Nour"),
    ("هالة", "Hala"), ("يوسف", "Youssef"), ("رنا", "Rana"), ("طارق", "Tarek"),
    ("مها", "Maha"), ("زياد", "Ziad"), ("دينا", "Dina"), ("عمر", "Omar"),
    ("سلمى", "Salma"), ("فادي", "Fadi"), ("ريم", "Reem"), ("باسل", "Basel"),
    ("جنى", "Jana"), ("مازن", "Mazen"), ("لينا", "Lina"), ("وليد", "Walid"),
    ("أمل", "Amal"), ("خالد", "Khaled"), ("سارة", "Sara"), ("نبيل", "Nabil"),
    ("هند", "Hind"), ("رامي", "Rami"), ("منى", "Mona"), ("جاد", "Jad"),
]  # fmt: skip
FATHER_NAMES = [
    ("أحمد", "Ahmad"), ("محمود", "Mahmoud"), ("إبراهيم", "Ibrahim"),
    ("حسن", "Hassan"), ("علي", "Ali"), ("سعيد", "Said"), ("جميل", "Jamil"),
    ("عادل", "Adel"), ("فؤاد", "Fouad"), ("ماجد", "Majed"), ("رشيد", "Rashid"),
    ("منير", "Mounir"), ("كمال", "Kamal"), ("نادر", "Nader"), ("هاني", "Hani"),
    ("صالح", "Saleh"), ("عماد", "Imad"), ("رياض", "Riad"), ("شادي", "Shadi"),
    ("غسان", "Ghassan"),
]  # fmt: skip
FAMILY_NAMES = [
    ("الحداد", "al-Haddad"), ("النجار", "al-Najjar"), ("الخياط", "al-Khayyat"),
    ("العطار", "al-Attar"), ("الصباغ", "al-Sabbagh"), ("الحلبي", "al-Halabi"),
    ("المصري", "al-Masri"), ("الشامي", "al-Shami"), ("البزاز", "al-Bazzaz"),
    ("السقا", "al-Saqqa"), ("الفخراني", "al-Fakhrani"), ("الدباغ", "al-Dabbagh"),
    ("القاضي", "al-Qadi"), ("الكاتب", "al-Kateb"), ("الطحان", "al-Tahhan"),
    ("الجمال", "al-Jammal"), ("البنا", "al-Banna"), ("الزيات", "al-Zayyat"),
    ("الصيرفي", "al-Sayrafi"), ("الخطيب", "al-Khatib"), ("النحاس", "al-Nahhas"),
    ("الحكيم", "al-Hakim"), ("الشريف", "al-Sharif"), ("العلي", "al-Ali"),
    ("المهندس", "al-Mohandes"),
]  # fmt: skip

ROLES = [
    ("خبير اقتصادي", "economist"),
    ("مسؤول محلي", "local official"),
    ("باحثة في الصحة العامة", "public health researcher"),
    ("مدرب رياضي", "sports coach"),
    ("ناشطة بيئية", "environmental campaigner"),
    ("مهندس مدني", "civil engineer"),
    ("أستاذة جامعية", "university lecturer"),
    ("صاحب متجر", "shop owner"),
]

OUTLETS = [
    ("صحيفة {city} اليوم", "{city} Today", "newspaper"),
    ("إذاعة {city}", "Radio {city}", "broadcaster"),
    ("موقع أخبار {city}", "{city} News Online", "website"),
    ("مجلة {city} الأسبوعية", "{city} Weekly", "magazine"),
    ("وكالة أنباء {city}", "{city} News Agency", "agency"),
    ("قناة {city} الإخبارية", "{city} News Channel", "broadcaster"),
    ("نشرة {city} الاقتصادية", "{city} Business Letter", "website"),
]
