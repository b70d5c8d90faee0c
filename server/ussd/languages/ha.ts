import type { UssdTexts } from "./en.ts";

/** The USSD menu's fixed texts in Hausa, written by machine translation and waiting for a native speaker's review (decision 202). */
export const ha: UssdTexts = {
  ask_pin: "Student Portal\nShigar da USSD PIN dinka (lambobi 4):",
  no_pin:
    "Don amfani da wannan menu, shiga Student Portal ka saka USSD PIN a shafin Biodata dinka.",
  pin_is_4_digits: "USSD PIN lambobi 4 ne. Sake kira.",
  wrong_pin: "PIN bai yi daidai ba. Sauran dama: {tries}. Sake kira.",
  locked: "An yi kuskuren PIN sau da yawa. An kulle menu ga lambarka har zuwa {time}.",
  session_over: "Lokacin ya kare. Sake kira.",
  main_menu:
    "Student Portal\n1 Kudin makaranta\n2 Biya kudi\n3 Rijistar kwasa-kwasai\n4 Sakamako\n5 Harshe\n0 Fita",
  not_on_menu: "Babu shi a menu. Sake gwadawa.",
  back: "0 Koma",
  goodbye: "Mun gode.",
  no_session: "Ba a bude shekarar karatu ba tukuna. Duba anjima.",
  fees_status: "Kudin makaranta {session}, matakin {level}\nAn biya: {paid}\nSaura: {owed}",
  fees_no_fee: "Ba a saka maka kudin makaranta na {session} ba tukuna. Tambayi bursary.",
  latest_payment: "Biyan karshe: {amount}, {state}",
  payment_paid: "an yi",
  payment_waiting: "ana jira",
  payment_not_paid: "bai yi ba",
  pay_choose: "Biya kudin {session}. Zabi:",
  option_full: "Duka",
  option_part: "Kashi na farko",
  option_second_installment: "Kashi na biyu",
  pay_nothing_to_pay: "An gama biyan kudinka na {session}. Babu sauran biya.",
  pay_sent: "Mun tura yadda za ka biya {amount} zuwa wannan waya ta SMS. Ref {reference}",
  pay_not_started: "Ba mu iya fara biyan ba. Sake gwadawa anjima ko ka yi amfani da portal.",
  registration_none: "Babu rijistar kwasa-kwasai na {session} tukuna.",
  registration_semester: "{semester}: unit {units}, {state}",
  first_semester: "Zango na 1",
  second_semester: "Zango na 2",
  registration_approved: "an amince",
  registration_waiting: "ana jiran mai ba ka shawara",
  registration_returned: "an mayar maka: {note}",
  results_none: "Sakamako: ba a fitar ba tukuna.",
  results_latest: "Sakamakon {session}, {semester}\nGPA {gpa}\nCGPA {cgpa}",
  results_withheld: "Sakamakonka na karshe zai bayyana bayan ka biya kudinka.",
  language_menu: "Harshe\n1 English\n2 Hausa\n3 Yoruba\n4 Igbo",
  language_set: "Yanzu menu yana cikin Hausa.",
  sms_locked:
    "An shigar da USSD PIN ba daidai ba sau 3 a asusunka na Student Portal. An kulle menu na USSD har zuwa {time}. Ba kai ba? Canza USSD PIN dinka a portal.",
  sms_pay_transfer:
    "Biya {amount} ta transfer zuwa {account} {bank} kafin {deadline}. Ref {reference}. Student Portal",
  sms_pay_rrr:
    "Biya {amount} da Remita RRR {rrr} ta intanet ko a kowane banki. Ref {reference}. Student Portal",
};
