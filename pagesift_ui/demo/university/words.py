"""Word banks of the university scenario (tables of text; no logic)."""

from __future__ import annotations

from ..kit.text import NO_OPENERS, Topic

__all__ = [
    "ABOUT", "ACCOMMODATION", "ADMISSIONS", "ARRIVAL", "CAMPUS", "CAREERS", "COUNTRY", "COURSE",
    "EVENTS", "FEES", "LEGAL", "LIBRARY", "LIVING_COSTS", "NEWS", "PAYMENT", "PEOPLE", "RESEARCH",
    "SCHOLARSHIPS", "VISAS",
]

FEES = Topic((
    "tuition fees for international students are set for each year of study",
    "international students pay the international tuition fee unless they have home fee status",
    "the tuition fee for your programme is shown on your offer letter",
    "tuition fees for international students stay the same for the standard length of the course",
    "laboratory-based programmes carry a higher tuition fee than classroom-based ones",
    "international students on a placement year pay a reduced tuition fee for that year",
    "the fees office confirms your fee status before you enrol",
    "international students who repeat a year pay the tuition fee for the modules they retake",
    "your tuition fees cover teaching, assessment, library access and student support",
    "tuition fees do not cover accommodation, travel or the cost of field trips",
    "students from outside the UK are normally classed as international students for fee purposes",
    "we publish tuition fees for international students a year before the course starts",
    "part-time international students pay a pro-rata share of the full-time tuition fee",
    "international students sponsored by a government pay their tuition fees through the sponsor",
    "you can ask the fees office to review your fee status if your circumstances change",
    "the international tuition fee for postgraduate research depends on the faculty",
))

SCHOLARSHIPS = Topic((
    "scholarships for international students are awarded as a discount on tuition fees",
    "the scholarship is deducted from your tuition fees in each year of study",
    "international students who hold an offer are considered automatically",
    "awards range from £2,000 to a full waiver of tuition fees",
    "the selection panel looks at academic merit and your personal statement",
    "you cannot combine two university scholarships for international students",
    "scholarship holders must keep an average mark of 60 per cent to renew the award",
    "we contact successful international students by email within six weeks",
    "the number of scholarships for international students is limited each year",
    "students who defer their place keep the scholarship for the following year",
    "scholarships for international students do not cover living costs",
    "the scholarship appears as a reduction on your tuition fee invoice",
))

PAYMENT = Topic((
    "international students must pay tuition fees before or at enrolment",
    "you can pay your tuition fees online by card or by bank transfer",
    "international students may spread their tuition fees over three instalments",
    "the first instalment of tuition fees is due at enrolment",
    "we add a late payment charge when an instalment of tuition fees is missed",
    "a sponsor letter must reach the fees office before you enrol",
    "payments from overseas banks can take up to five working days to arrive",
    "the online payment portal shows the tuition fees you owe and what you have paid",
    "international students who pay tuition fees in full at enrolment receive a discount",
    "refunds of tuition fees are paid back to the account that made the payment",
    "international students who withdraw in the first two weeks are refunded their tuition fees",
    "your deposit is deducted from the tuition fees you owe when you enrol",
    "the fees office answers questions from international students about tuition fees in two days",
))

VISAS = Topic((
    "most international students need a Student visa to study in the UK",
    "you can apply for your visa up to six months before your course starts",
    "the visa application asks for your Confirmation of Acceptance for Studies",
    "the Home Office checks that you can pay your tuition fees and living costs",
    "you must show money for your course fees plus living costs for up to nine months",
    "bank statements must show the money held for at least 28 consecutive days",
    "our immigration advisers check your documents before you apply",
    "the immigration health surcharge is paid when you submit your visa application",
    "a visa refusal letter should be sent to the international office straight away",
    "students on a Student visa may work up to 20 hours a week in term time",
    "dependants can join some postgraduate students during their studies",
    "your passport must be valid for the whole visa application process",
))

LIVING_COSTS = Topic((
    "living costs in Eastmere are lower than in many larger UK cities",
    "a room in university accommodation costs between £140 and £210 a week",
    "most students spend around £50 a week on food",
    "a bus pass for the academic year costs about £380",
    "phone contracts and internet are usually included in hall rents",
    "books and course materials cost about £300 a year, depending on the course",
    "a part-time job can help with day-to-day costs",
    "the students' union runs free budgeting workshops every term",
    "international students should plan for heating bills in the winter months",
    "a student discount card saves money in many local shops",
), NO_OPENERS)

ADMISSIONS = Topic((
    "the admissions team reviews every application individually",
    "offers are made on the basis of predicted or achieved grades",
    "applicants can track their application through the applicant portal",
    "most undergraduate applications are made through UCAS",
    "postgraduate applications are made directly to the university",
    "we welcome applicants with a wide range of qualifications",
    "some courses invite applicants to an interview or an audition",
    "contextual offers recognise the circumstances in which you studied",
    "you can change your course choice before you accept an offer",
    "open days are the best way to meet lecturers and current students",
    "our admissions tutors are happy to answer questions about entry requirements",
    "a conditional offer becomes unconditional once you meet its conditions",
))

COUNTRY = Topic((
    "students from {country} have studied at Northgate for more than twenty years",
    "our representatives visit {country} several times a year",
    "we accept a wide range of qualifications from {country}",
    "the {country} alumni network meets every year",
    "applicants from {country} can meet our staff at education fairs",
    "graduates from {country} work in business, government and research",
    "we work with approved agents in {country} who can help with your application",
    "a foundation year is available for students whose qualifications need a bridge",
    "our international office answers questions from students in {country} by email and video call",
    "pre-departure briefings for students from {country} are held every summer",
), NO_OPENERS)

COURSE = Topic((
    "the programme combines lectures, seminars and practical work in {subject}",
    "in the final year students complete an independent project in {subject}",
    "teaching is delivered by staff who are active researchers in {subject}",
    "you will develop skills that employers value, from analysis to teamwork",
    "modules are assessed through coursework, presentations and examinations",
    "an optional placement year gives you experience in industry",
    "small-group tutorials help you to build confidence in {subject}",
    "graduates go on to careers in the private, public and charity sectors",
    "field trips and site visits bring {subject} to life",
    "you can study abroad for a semester with one of our partner universities",
    "the course is accredited by the relevant professional body",
    "you will have a personal tutor throughout your studies",
), NO_OPENERS)

RESEARCH = Topic((
    "our researchers work with partners in industry, government and the community",
    "the centre brings together expertise in {field}",
    "projects in {field} are funded by research councils and charities",
    "doctoral researchers join a lively community of scholars",
    "the group publishes widely in leading journals on {field}",
    "our work in {field} has shaped policy at local and national level",
    "new laboratories opened in {year} to support work on {field}",
    "the centre hosts visiting researchers from around the world",
    "public lectures share our findings on {field} with a wide audience",
    "collaborations with hospitals and schools help turn research into practice",
    "the team has secured funding of more than £{n} million since {year}",
), NO_OPENERS)

LIBRARY = Topic((
    "the library is open 24 hours a day during term time",
    "you can borrow up to twenty items at once with your campus card",
    "study rooms can be booked online for groups of up to eight people",
    "the special collections hold rare books, maps and archives",
    "subject librarians help with literature searches and referencing",
    "electronic journals and databases are available on and off campus",
    "inter-library loans bring in books that we do not hold",
    "laptops can be borrowed from the self-service lockers on the ground floor",
    "quiet zones are on the upper floors and group study on the ground floor",
    "returns can be made at any time through the book drop",
), NO_OPENERS)

CAREERS = Topic((
    "the successful candidate will join a friendly and supportive team",
    "you will have experience of working in a busy office environment",
    "the post is offered on a full-time, permanent basis",
    "we offer a generous pension scheme and 30 days of annual leave",
    "applications from under-represented groups are particularly welcome",
    "the role involves close work with academic and professional staff",
    "you will manage your own workload and meet tight deadlines",
    "informal enquiries are welcome and should be sent to the hiring manager",
    "interviews are expected to take place three weeks after the closing date",
    "the university supports flexible and hybrid working where the role allows",
), NO_OPENERS)

PEOPLE = Topic((
    "{name} joined the department in {year}",
    "their research focuses on {field}",
    "they teach modules on research methods and {field}",
    "they have published widely on {field}",
    "they supervise doctoral students working on {field}",
    "before joining Northgate they worked in industry for several years",
    "they are a fellow of the Higher Education Academy",
    "they welcome enquiries from prospective research students",
    "they serve on the editorial board of a leading journal",
    "their work has been funded by research councils and charities",
), NO_OPENERS)

NEWS = Topic((
    "the project was led by a team from the {dept}",
    "more than {n}0 students took part over the weekend",
    "{name}, who led the work, said the results were better than expected",
    "local schools and community groups were invited to join",
    "the team plans to repeat the event next year",
    "students and staff volunteered their time to make it happen",
    "the work was supported by a grant from a national charity",
    "visitors were able to see the new facilities for the first time",
    "international students from more than {n} countries joined the celebrations",
    "the university has a long history of working with the community",
    "final-year students presented their work to an audience of employers",
    "the results will be published later this year",
    "the award recognises years of hard work by students and staff",
    "photographs from the day are available from the press office",
    "the scheme has already helped hundreds of students",
), NO_OPENERS)

EVENTS = Topic((
    "the event is free and open to everyone",
    "places are limited, so please book in advance",
    "refreshments will be served after the talk",
    "the lecture will also be streamed online",
    "doors open half an hour before the start",
    "the venue is accessible to wheelchair users",
    "staff, students and members of the public are welcome",
    "the session ends with questions from the audience",
), NO_OPENERS)

CAMPUS = Topic((
    "the campus is a short walk from Eastmere city centre",
    "more than 200 student societies meet every week",
    "the sports centre offers classes for all abilities",
    "green spaces on campus are open to visitors",
    "cafes and food outlets are open seven days a week",
    "the students' union runs events throughout the year",
    "free wellbeing support is available to all students",
    "cycle storage and showers are available across the campus",
    "buses run to the campus every ten minutes during term",
    "the arts centre hosts concerts, films and exhibitions",
), NO_OPENERS)

ACCOMMODATION = Topic((
    "first-year students are guaranteed a room in university accommodation",
    "halls are a short walk from teaching buildings",
    "rooms come with a single bed, desk, wardrobe and fast internet",
    "rent includes heating, water, electricity and contents insurance",
    "residential advisers live in every hall and organise social events",
    "international students who arrive early can book a room from mid-September",
    "family accommodation is available for postgraduate students",
    "contracts run for 42 or 51 weeks",
    "the accommodation office helps students looking for private housing",
    "bike storage and laundry rooms are available in every hall",
), NO_OPENERS)

ABOUT = Topic((
    "Northgate University was founded in 1892 as a technical college",
    "today the university has more than 24,000 students",
    "the university is organised in four faculties",
    "our research is rated world-leading in many subjects",
    "the university council is responsible for strategy and governance",
    "the senate oversees academic standards",
    "our strategy puts teaching, research and the region at the heart of what we do",
    "the university aims to reach net zero carbon by 2035",
    "alumni live and work in more than 150 countries",
    "the university is one of the largest employers in the region",
), NO_OPENERS)

LEGAL = Topic((
    "this statement explains how we handle personal information",
    "we collect only the data we need to provide our services",
    "you have the right to ask for a copy of the data we hold about you",
    "cookies help us understand how visitors use the website",
    "we aim to make this website usable by as many people as possible",
    "you can adjust colours, contrast and font sizes in your browser",
    "requests should be sent to the information compliance team",
    "we review this statement every year",
    "the university is the data controller for the information it holds",
    "some parts of the website are not yet fully accessible",
))

ARRIVAL = Topic((
    "our free airport pickup runs from Heathrow and Manchester in September",
    "welcome week is full of events to help you settle in",
    "you will collect your campus card when you enrol",
    "register with a local doctor in your first week",
    "student ambassadors meet new arrivals at the train station",
    "the orientation programme introduces the city, the campus and its services",
    "a guided tour of Eastmere runs every afternoon during welcome week",
    "opening a bank account is easier once you have a letter from the university",
    "bring warm clothes: Eastmere can be cold and wet in the winter",
    "the international office is open late during the first two weeks of term",
), NO_OPENERS)
