"""A small demo newsroom, written for this project, loaded by `manage.py load_demo`.

Every story and person here is fictional. Loading twice updates the same rows.
"""

import hashlib
import io
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from articles.body import place_embeds
from articles.models import (
    Article,
    ArticlePerson,
    Byline,
    Correction,
    Section,
    SocialPost,
    Status,
)
from identity.models import Person
from images.models import Image
from images.renditions import renditions_make
from live.models import LiveCoverage, LiveEntry
from sources.models import Attribution, SocialAccount, Source

SOURCES = [
    {
        "slug": "24-ae",
        "name_ar": "موقع 24",
        "name_en": "24.ae",
        "kind": Source.Kind.WEBSITE,
        "aliases": "موقع 24\n24.ae\n24",
        "homepage": "https://24.ae/",
        "domains": "24.ae",
        "country": "الإمارات",
        "language": "ar",
        "terms": "Own content.",
    },
    {
        "slug": "asharq-al-awsat",
        "name_ar": "الشرق الأوسط",
        "name_en": "Asharq Al-Awsat",
        "kind": Source.Kind.NEWSPAPER,
        "aliases": "صحيفة الشرق الأوسط\nAsharq Al-Awsat\nAawsat",
        "homepage": "https://aawsat.com/",
        "domains": "aawsat.com\nenglish.aawsat.com",
        "country": "المملكة المتحدة",
        "language": "ar",
        "accounts": [("x", "aawsat_News")],
    },
    {
        "slug": "afp",
        "name_ar": "وكالة الصحافة الفرنسية",
        "name_en": "Agence France-Presse",
        "kind": Source.Kind.AGENCY,
        "aliases": "أ ف ب\nأ.ف.ب\nفرانس برس\nAFP",
        "homepage": "https://www.afp.com/",
        "domains": "afp.com",
        "country": "فرنسا",
        "language": "fr",
    },
    {
        "slug": "reuters",
        "name_ar": "رويترز",
        "name_en": "Reuters",
        "kind": Source.Kind.AGENCY,
        "aliases": "Reuters",
        "homepage": "https://www.reuters.com/",
        "domains": "reuters.com",
        "country": "المملكة المتحدة",
        "language": "en",
    },
]

SECTIONS = [
    ("arab-world", "العالم العربي", "Arab World"),
    ("economy", "اقتصاد", "Economy"),
    ("culture", "ثقافة", "Culture"),
]

PEOPLE = [
    {
        "key": "narrator",
        "name": "مازن الخطيب",
        "other_spellings": "Mazen al-Khatib",
        "public_name": "الراوي",
        "aliases": "الراوي\nThe Narrator",
        "description_ar": "موظف سابق في الميناء وثّق سجلات الشحنات المفقودة",
        "description_en": "Former port clerk who documented the missing shipment records",
        "identity_protected": True,
    },
    {
        "key": "hala",
        "name": "هالة يوسف",
        "public_name": "",
        "aliases": "Hala Youssef\nمنار",
        "description_ar": "صحافية استقصائية كشفت هويتها بعد سنوات من العمل باسم مستعار",
        "description_en": "Investigative journalist who revealed her identity after years",
        "identity_protected": False,
    },
]

PORT_STORY_AR = """<p>بعد ثماني سنوات من الصمت، قررت الصحافية هالة يوسف أن تكشف أنها كانت تكتب
باسم "منار"، الاسم الذي ارتبط بسلسلة تحقيقات عن سجلات الشحن المفقودة في أحد موانئ المنطقة.</p>
<p>وقالت يوسف إن مصدرها الأول، الذي لا يزال يُعرف باسم "الراوي"، كان موظفاً في قسم الأرشيف،
ونسخ آلاف الصفحات على مدى عامين قبل أن يغادر البلاد.</p>
<p>وأوضحت أن "الراوي" كان يسلمها الوثائق على دفعات صغيرة، وأن كل دفعة كانت تحمل أرقاماً
تسلسلية مثل PX-2017 وأخرى بالأرقام العربية ١٢٣٤.</p>
<p>واليوم تطالب منظمات حقوقية بفتح تحقيق مستقل في ما كشفته الوثائق، فيما لم تعلق السلطات
المعنية حتى الآن.</p>"""

PORT_STORY_EN = """<p>After eight years of silence, journalist Hala Youssef has revealed that she
wrote as "Manar", the name behind a series of investigations into missing shipping records.</p>
<p>Youssef said her first source, still known only as "the Narrator", worked in the archive
department and copied thousands of pages over two years before leaving the country.</p>
<p>The Narrator handed over the documents in small batches, she said.</p>
<p>Rights groups are now calling for an independent inquiry.</p>"""

FERRY_STORY_AR = """<p>أعلنت شركة ملاحة إقليمية اليوم افتتاح خط بحري جديد يربط دبي بميناء صلالة،
بواقع ثلاث رحلات أسبوعياً.</p>
<p>وقال مسؤول في الشركة لوكالة الصحافة الفرنسية إن الرحلة الأولى ستنطلق مطلع الشهر المقبل،
وإن الخط يستهدف المسافرين والشحنات الصغيرة على حد سواء.</p>
<p>ويأتي الإعلان ضمن خطة أوسع لتوسيع الربط البحري بين موانئ الخليج وبحر العرب.</p>"""

BOOK_FAIR_AR = """<p>اختتم معرض الكتاب العربي دورته العاشرة باستقبال أكثر من ٣٠٠ ألف زائر
خلال عشرة أيام، بحسب المنظمين.</p>
<p>وشهدت الدورة مشاركة 1200 دار نشر من 40 بلداً، إلى جانب برنامج ثقافي ضم ندوات عن الترجمة
وأدب الطفل والرواية الرقمية.</p>
<p>وقالت إدارة المعرض إن مبيعات الكتب الموجهة للأطفال سجلت أعلى نسبة نمو هذا العام.</p>"""

STARTUP_STORY_EN = """<p>Dubai's annual startup week closed on Friday with organisers reporting
record attendance, as founders from across the region pitched to investors.</p>
<p>Climate technology and Arabic-language software drew the most interest, according to
the organisers, who said more than 400 companies took part.</p>
<p>Several investors said they were looking for tools built for Arabic speakers first.</p>"""


def _demo_image() -> ContentFile:
    """A drawn placeholder picture, so the demo needs no photo from outside."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1200, 675), "#1d3b53")
    draw = ImageDraw.Draw(image)
    for i in range(12):
        shade = 70 + i * 12
        draw.rectangle(
            (80 + i * 90, 140 + (i % 3) * 40, 150 + i * 90, 600), fill=(shade, 110, 90)
        )
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return ContentFile(buffer.getvalue(), name="demo-archive.jpg")


def _demo_library_image() -> Image:
    """The drawn picture as a library image, with its renditions made now (the
    demo has no request to wait for)."""
    upload = _demo_image()
    digest = hashlib.sha256(upload.read()).hexdigest()
    upload.seek(0)
    image = Image.objects.filter(content_hash=digest).first()
    if image is None:
        image = Image(
            title_ar="أرشيف ورقي",
            title_en="Paper archive",
            caption_ar="أرشيف ورقي في أحد المكاتب (صورة توضيحية)",
            caption_en="A paper archive in an office (illustration)",
            alt_text_ar="رفوف مكتظة بالملفات الورقية",
            alt_text_en="Shelves crowded with paper files",
            credit="Newsroom demo",
            source="Newsroom",
            content_hash=digest,
        )
        image.file.save("demo-archive.jpg", upload, save=False)
        image.save()
    if not image.renditions.exists():
        renditions_make(image)
    return image


def _load_sources() -> dict[str, Source]:
    sources = {}
    for data in SOURCES:
        data = dict(data)
        accounts = data.pop("accounts", [])
        source, _created = Source.objects.update_or_create(
            slug=data.pop("slug"), defaults=data
        )
        for platform, handle in accounts:
            SocialAccount.objects.update_or_create(
                platform=platform, handle=handle, defaults={"source": source}
            )
        sources[source.slug] = source
    return sources


def _load_people() -> dict[str, Person]:
    people = {}
    for data in PEOPLE:
        data = dict(data)
        key = data.pop("key")
        # A protected person's row keeps no legal name: found by the pseudonym.
        lookup = "public_name" if data.get("identity_protected") else "name"
        person = Person.objects.filter(**{lookup: data[lookup]}).first() or Person()
        for field, value in data.items():
            setattr(person, field, value)
        person.save()
        people[key] = person
    return people


def _article(slug_ar_or_en: str, language: str, **fields) -> Article:
    lookup = {f"slug_{language}": slug_ar_or_en}
    article = Article.objects.filter(**lookup).first() or Article(**lookup)
    for name, value in fields.items():
        setattr(article, name, value)
    article.language = language
    article.full_clean()
    article.save()
    return article


def _replace_related(
    article: Article, *, people=(), posts=(), attributions=(), bylines=()
):
    article.people_named.all().delete()
    article.social_posts.all().delete()
    article.attributions.all().delete()
    article.bylines.all().delete()
    for position, (person, role, name_used) in enumerate(people):
        ArticlePerson.objects.create(
            article=article,
            person=person,
            role=role,
            name_used=name_used,
            position=position,
        )
    placements = []
    for post in posts:
        fields = dict(post)
        after = fields.pop("after_paragraph", None)
        created = SocialPost.objects.create(article=article, **fields)
        if after is not None:
            placements.append((after, "post", created.pk))
    if placements:
        name = f"body_{article.language}"
        setattr(article, name, place_embeds(getattr(article, name), placements))
        article.save(update_fields=[name])
    for position, (source, role, url, canonical) in enumerate(attributions):
        Attribution.objects.create(
            article=article,
            source=source,
            role=role,
            original_url=url,
            is_canonical=canonical,
            position=position,
        )
    for position, name in enumerate(bylines):
        Byline.objects.create(article=article, name=name, position=position)


def _load_workflow_examples(sections: dict[str, Section], now) -> None:
    """One story at each step an editor meets: in review, scheduled, embargoed."""
    _article(
        "تقرير-المياه-بانتظار-المراجعة",
        "ar",
        headline_ar="تقرير عن شح المياه في القرى الجبلية ينتظر مراجعة المحرر",
        summary_ar="مراسلنا أرسل التقرير وينتظر ملاحظات مكتب التحرير.",
        body_ar="<p>يعتمد سكان القرى على صهاريج تصل مرة في الأسبوع.</p>",
        section=sections["arab-world"],
        status=Status.IN_REVIEW,
        published_at=None,
    )
    _article(
        "ملحق-ثقافي-يصدر-غدا",
        "ar",
        headline_ar="ملحق ثقافي عن المكتبات العامة يصدر صباح الغد",
        summary_ar="مجدول للنشر تلقائياً في موعده.",
        body_ar="<p>يستعرض الملحق تاريخ المكتبات العامة في المدن العربية.</p>",
        section=sections["culture"],
        status=Status.PUBLISHED,
        published_at=now + timedelta(days=1),
    )
    _article(
        "نتائج-الربع-تحت-الحظر",
        "ar",
        headline_ar="نتائج الربع الثالث لشركة الطيران الوطنية",
        summary_ar="منشور لكنه تحت الحظر حتى موعد إعلان الشركة.",
        body_ar="<p>تعلن الشركة نتائجها رسمياً في المساء.</p>",
        section=sections["economy"],
        status=Status.PUBLISHED,
        published_at=now - timedelta(minutes=30),
        embargo_until=now + timedelta(hours=6),
    )
    bridge = _article(
        "افتتاح-الجسر-الجديد",
        "ar",
        headline_ar="افتتاح الجسر الجديد فوق الخور أمام حركة السير",
        headline_en="New bridge over the creek opens to traffic",
        summary_ar="الجسر يختصر زمن العبور بين ضفتي الخور إلى النصف.",
        body_ar="<p>افتتحت البلدية الجسر الجديد صباح الأحد بعد عامين من العمل.</p>",
        section=sections["economy"],
        status=Status.PUBLISHED,
        published_at=now - timedelta(hours=26),
    )
    Correction.objects.update_or_create(
        article=bridge,
        kind=Correction.Kind.CORRECTION,
        defaults={
            "text_ar": "ذكرت نسخة سابقة أن الافتتاح كان يوم السبت، والصحيح أنه الأحد.",
            "text_en": "An earlier version said the bridge opened on Saturday; it "
            "opened on Sunday.",
            "created_at": now - timedelta(hours=20),
        },
    )


# A live coverage, fictional like the rest: (minutes ago, headline, text, key event,
# pinned, correction), in Arabic then English.
STORM_ENTRIES = [
    (
        170,
        ("الإنذار الأحمر", "Red warning"),
        (
            "<p>رفع المركز الوطني للأرصاد مستوى التحذير إلى الأحمر على الشريط "
            "الساحلي، وتوقع أمطاراً غزيرة ورياحاً تتجاوز 90 كيلومتراً في الساعة.</p>",
            "<p>The national weather centre raised its warning to red along the "
            "coast, forecasting heavy rain and winds above 90 km/h.</p>",
        ),
        True,
        False,
        None,
    ),
    (
        140,
        ("", ""),
        (
            "<p>أغلقت الشرطة طريق الكورنيش في الاتجاهين بعد ارتفاع الموج فوق "
            "الحاجز، ودعت السائقين إلى استخدام الطريق الداخلي.</p>",
            "<p>Police closed the corniche road both ways after waves broke over the "
            "sea wall, and asked drivers to take the inland road.</p>",
        ),
        False,
        False,
        None,
    ),
    (
        120,
        ("أرقام الطوارئ", "Emergency numbers"),
        (
            "<p>الدفاع المدني: 997. الإسعاف: 998. البلاغات غير العاجلة عبر تطبيق "
            "البلدية. ابتعدوا عن الأودية ومجاري السيول.</p>",
            "<p>Civil defence: 997. Ambulance: 998. Report anything that is not urgent "
            "through the municipality's app. Keep away from wadis and flood channels."
            "</p>",
        ),
        False,
        True,
        None,
    ),
    (
        75,
        ("", ""),
        (
            "<p>فتحت البلدية المدارس في ثلاثة أحياء ملاجئ مؤقتة للعائلات التي "
            "غمرت المياه بيوتها.</p>",
            "<p>The municipality opened schools in three districts as shelters for "
            "families whose homes flooded.</p>",
        ),
        True,
        False,
        (
            "الملاجئ في أربعة أحياء لا ثلاثة؛ أضيفت مدرسة حي الميناء.",
            "Shelters are open in four districts, not three: the harbour district's "
            "school was added.",
        ),
    ),
    (
        15,
        ("", ""),
        (
            "<p>بدأت الأمطار تخف في الشمال، بينما تبقى الرياح قوية على الساحل "
            "حتى المساء بحسب الأرصاد.</p>",
            "<p>The rain is easing in the north; the weather centre says the wind "
            "will stay strong on the coast until the evening.</p>",
        ),
        False,
        False,
        None,
    ),
]


def _load_live_coverage(sections: dict[str, Section], now) -> Article:
    """A storm covered live: a pinned entry, key events, a corrected entry."""
    storm = _article(
        "العاصفة-تضرب-الساحل-تغطية-مباشرة",
        "ar",
        slug_en="storm-hits-the-coast-live",
        headline_ar="العاصفة تضرب الساحل: تغطية مباشرة",
        headline_en="Storm hits the coast: live",
        summary_ar="أمطار غزيرة ورياح قوية وإغلاق طرق، ونتابع التطورات لحظة بلحظة.",
        summary_en="Heavy rain, strong winds and closed roads: updates as they come.",
        body_ar="<p>تتعرض المدن الساحلية منذ الفجر لعاصفة مطرية هي الأقوى منذ "
        "سنوات. نتابع هنا ما يرد من فرقنا ومن الجهات الرسمية.</p>",
        body_en="<p>Coastal cities have been hit since dawn by the strongest storm in "
        "years. We follow here what our teams and the authorities report.</p>",
        section=sections["arab-world"],
        is_breaking=True,
        status=Status.PUBLISHED,
        published_at=now - timedelta(hours=3),
    )
    desk, _created = get_user_model().objects.get_or_create(
        username="demo-live-desk",
        defaults={"first_name": "مكتب", "last_name": "التغطية المباشرة"},
    )
    if _created:
        desk.set_unusable_password()
        desk.save(update_fields=["password"])
    LiveCoverage.objects.update_or_create(
        article=storm,
        defaults={
            "state": LiveCoverage.State.LIVE,
            "started_at": now - timedelta(hours=3),
            "ended_at": None,
        },
    )
    LiveEntry.all_entries.filter(article=storm).delete()
    for minutes, headline, body, key, pinned, correction in STORM_ENTRIES:
        LiveEntry.objects.create(
            article=storm,
            author=desk,
            posted_at=now - timedelta(minutes=minutes),
            headline_ar=headline[0],
            headline_en=headline[1],
            body_ar=body[0],
            body_en=body[1],
            is_key_event=key,
            is_pinned=pinned,
            correction_ar=correction[0] if correction else "",
            correction_en=correction[1] if correction else "",
            corrected_at=now - timedelta(minutes=40) if correction else None,
        )
    return storm


@transaction.atomic
def demo_newsroom_load() -> dict[str, int]:
    """Create or refresh the demo newsroom; returns how many rows of each kind exist."""
    now = timezone.now()
    sources = _load_sources()
    sections = {}
    for slug, name_ar, name_en in SECTIONS:
        sections[slug], _created = Section.objects.update_or_create(
            slug=slug, defaults={"name_ar": name_ar, "name_en": name_en}
        )
    people = _load_people()

    port = _article(
        "صحافية-تكشف-هويتها-بعد-ثماني-سنوات",
        "ar",
        slug_en="journalist-reveals-identity-after-eight-years",
        headline_ar="صحافية تكشف هويتها بعد ثماني سنوات من الكتابة باسم مستعار",
        headline_en="Journalist reveals her identity after eight years under a pen name",
        kicker_ar="حصري",
        kicker_en="Exclusive",
        summary_ar="هالة يوسف تروي كيف بدأت تحقيقات سجلات الشحن المفقودة، ومصدرها ما زال مجهولاً.",
        summary_en="Hala Youssef tells how the missing shipping records inquiry began.",
        body_ar=PORT_STORY_AR,
        body_en=PORT_STORY_EN,
        section=sections["arab-world"],
        status=Status.PUBLISHED,
        published_at=now - timedelta(hours=3),
        hero_image=_demo_library_image(),
    )
    port.tags.set(["تحقيقات", "حرية الصحافة", "الموانئ"])
    _replace_related(
        port,
        people=[
            (people["hala"], ArticlePerson.Role.SUBJECT, "هالة يوسف"),
            (people["narrator"], ArticlePerson.Role.MENTIONED, "الراوي"),
        ],
        posts=[
            {
                "platform": "x",
                "author_name": "منصة الخليج الإخبارية",
                "handle": "gulf_desk_demo",
                "text": (
                    "#خاص | صحافية تكشف هويتها بعد سنوات من الكتابة باسم مستعار "
                    "https://t.co/demo1234 #حرية_الصحافة"
                ),
                "links": ["https://t.co/demo1234"],
                "media_urls": ["https://pic.twitter.com/demo5678"],
                "hashtags": ["خاص", "حرية_الصحافة"],
                "posted_at": now - timedelta(hours=5),
                "language": "ar",
                "after_paragraph": 3,
            }
        ],
        attributions=[(sources["24-ae"], Attribution.Role.REPUBLISHED, "", False)],
        bylines=["فريق التحرير"],
    )

    ferry = _article(
        "افتتاح-خط-بحري-بين-دبي-وصلالة",
        "ar",
        headline_ar="افتتاح خط بحري جديد بين دبي وميناء صلالة",
        summary_ar="ثلاث رحلات أسبوعياً تبدأ مطلع الشهر المقبل.",
        body_ar=FERRY_STORY_AR,
        section=sections["economy"],
        is_breaking=True,
        status=Status.PUBLISHED,
        published_at=now - timedelta(minutes=20),
    )
    ferry.tags.set(["الملاحة", "دبي"])
    _replace_related(
        ferry,
        attributions=[
            (
                sources["afp"],
                Attribution.Role.VIA,
                "https://www.afp.com/ar/demo-ferry",
                True,
            )
        ],
        bylines=["دبي - أ ف ب"],
    )

    fair = _article(
        "معرض-الكتاب-العربي-يختتم-دورته-العاشرة",
        "ar",
        headline_ar="معرض الكتاب العربي يختتم دورته العاشرة بـ٣٠٠ ألف زائر",
        summary_ar="مبيعات كتب الأطفال الأعلى نمواً هذا العام.",
        body_ar=BOOK_FAIR_AR,
        section=sections["culture"],
        status=Status.PUBLISHED,
        published_at=now - timedelta(days=1),
    )
    fair.tags.set(["كتب", "ثقافة"])
    _replace_related(fair, bylines=["قسم الثقافة"])

    startup = _article(
        "dubai-startup-week-record-attendance",
        "en",
        headline_en="Dubai startup week closes with record attendance",
        summary_en="Climate tech and Arabic-first software led investor interest.",
        body_en=STARTUP_STORY_EN,
        section=sections["economy"],
        status=Status.PUBLISHED,
        published_at=now - timedelta(hours=8),
    )
    startup.tags.set(["startups", "Dubai"])
    _replace_related(
        startup,
        attributions=[(sources["reuters"], Attribution.Role.CITED, "", False)],
        bylines=["Business desk"],
    )

    _article(
        "مسودة-لم-تنشر-بعد",
        "ar",
        headline_ar="مسودة لم تُنشر بعد: متابعة لقضية سجلات الشحن",
        body_ar="<p>نص أولي ينتظر المراجعة.</p>",
        section=sections["arab-world"],
        status=Status.DRAFT,
        published_at=None,
    )
    _load_workflow_examples(sections, now)
    _load_live_coverage(sections, now)
    return {
        "sources": Source.objects.count(),
        "sections": Section.objects.count(),
        "people": Person.objects.count(),
        "articles": Article.objects.count(),
    }
