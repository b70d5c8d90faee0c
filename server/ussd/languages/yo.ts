import type { UssdTexts } from "./en.ts";

/** The USSD menu's fixed texts in Yoruba, written by machine translation and waiting for a native speaker's review (decision 202). */
export const yo: UssdTexts = {
  ask_pin: "Student Portal\nTe USSD PIN re (nomba 4):",
  no_pin: "Lati lo menu yii, wole si Student Portal ki o seto USSD PIN lori oju-iwe Biodata re.",
  pin_is_4_digits: "USSD PIN je nomba 4. Tun pe.",
  wrong_pin: "PIN ko to. Igba to ku: {tries}. Tun pe.",
  locked: "PIN ti ko to ti po ju. A ti dena menu yii fun nomba re titi di {time}.",
  session_over: "Asiko yii ti pari. Tun pe.",
  main_menu:
    "Student Portal\n1 Owo ileewe\n2 San owo ileewe\n3 Iforukosile eko\n4 Esi idanwo\n5 Ede\n0 Jade",
  not_on_menu: "Ko si ninu menu. Tun gbiyanju.",
  back: "0 Pada",
  goodbye: "O dabo.",
  no_session: "Ko tii si odun eko to si sile. Tun wo nigba miiran.",
  fees_status: "Owo ileewe {session}, ipele {level}\nOwo to san: {paid}\nOwo to ku: {owed}",
  fees_no_fee: "A ko tii seto owo ileewe fun o ni {session}. Beere lowo bursary.",
  latest_payment: "Isanwo to kehin: {amount}, {state}",
  payment_paid: "pari",
  payment_waiting: "o n duro",
  payment_not_paid: "ko pari",
  pay_choose: "San owo ileewe {session}. Yan:",
  option_full: "Kikun",
  option_part: "Ipin akoko",
  option_second_installment: "Ipin keji",
  pay_nothing_to_pay: "O ti san owo ileewe {session} tan. Ko si nkan to ku lati san.",
  pay_sent: "A ti fi bi o se le san {amount} ranse si foonu yii ni SMS. Ref {reference}",
  pay_not_started: "A ko le bere isanwo naa. Tun gbiyanju nigba miiran tabi lo portal.",
  registration_none: "Ko tii si eko ti o forukosile fun {session}.",
  registration_semester: "{semester}: unit {units}, {state}",
  first_semester: "Saa kinni",
  second_semester: "Saa keji",
  registration_approved: "a fowo si",
  registration_waiting: "n duro de oludamoran re",
  registration_returned: "a da pada: {note}",
  results_none: "Esi idanwo: ko tii jade.",
  results_latest: "Esi idanwo {session}, {semester}\nGPA {gpa}\nCGPA {cgpa}",
  results_withheld: "Esi re to kehin yoo han nigba ti o ba san owo ileewe.",
  language_menu: "Ede\n1 English\n2 Hausa\n3 Yoruba\n4 Igbo",
  language_set: "Menu naa ti wa ni Yoruba bayii.",
  sms_locked:
    "Won te USSD PIN ti ko to ni igba 3 fun akanti Student Portal re. A ti dena menu USSD titi di {time}. Ki i se iwo? Yi USSD PIN re pada lori portal.",
  sms_pay_transfer:
    "San {amount} nipa transfer si {account} {bank} ki o to di {deadline}. Ref {reference}. Student Portal",
  sms_pay_rrr:
    "San {amount} pelu Remita RRR {rrr} lori ayelujara tabi ni banki eyikeyi. Ref {reference}. Student Portal",
};
