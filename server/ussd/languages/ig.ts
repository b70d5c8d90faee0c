import type { UssdTexts } from "./en.ts";

/** The USSD menu's fixed texts in Igbo, written by machine translation and waiting for a native speaker's review (decision 202). */
export const ig: UssdTexts = {
  ask_pin: "Student Portal\nTinye USSD PIN gi (onuogugu 4):",
  no_pin: "Ka i jiri menu a, banye na Student Portal ma hazie USSD PIN na peeji Biodata gi.",
  pin_is_4_digits: "USSD PIN bu onuogugu 4. Kpoo ozo.",
  wrong_pin: "PIN ezighi ezi. Ohere foduru: {tries}. Kpoo ozo.",
  locked: "I tinyela PIN ezighi ezi ugboro otutu. E mechiela menu a maka nomba gi ruo {time}.",
  session_over: "Oge a agwula. Kpoo ozo.",
  main_menu:
    "Student Portal\n1 Ugwo akwukwo\n2 Kwuo ugwo akwukwo\n3 Ndebanye aha kosu\n4 Nsonaazu\n5 Asusu\n0 Puo",
  not_on_menu: "Nke a anoghi na menu. Nwaa ozo.",
  back: "0 Azu",
  goodbye: "Ka o di.",
  no_session: "O nweghi afo akwukwo meghere. Lelee ozo emechaa.",
  fees_status: "Ugwo akwukwo {session}, okwa {level}\nEgo i kwuru: {paid}\nEgo foduru: {owed}",
  fees_no_fee: "E debebeghi ugwo akwukwo gi maka {session}. Juo ndi bursary.",
  latest_payment: "Ugwo ikpeazu: {amount}, {state}",
  payment_paid: "kwuru",
  payment_waiting: "na-eche",
  payment_not_paid: "akwughi",
  pay_choose: "Kwuo ugwo akwukwo {session}. Horo:",
  option_full: "Niile",
  option_part: "Akuku nke mbu",
  option_second_installment: "Akuku nke abuo",
  pay_nothing_to_pay: "I kwuchaala ugwo akwukwo {session}. O nweghi ihe foduru.",
  pay_sent: "Anyi ezitela otu i ga-esi kwuo {amount} na fon a site na SMS. Ref {reference}",
  pay_not_started: "Anyi enweghi ike ibido ikwu ugwo a. Nwaa ozo emechaa ma o bu jiri portal.",
  registration_none: "O nweghi kosu edebanyere maka {session}.",
  registration_semester: "{semester}: unit {units}, {state}",
  first_semester: "Semesta nke 1",
  second_semester: "Semesta nke 2",
  registration_approved: "akwadoro",
  registration_waiting: "na-eche onye ndumodu gi",
  registration_returned: "ezighachiri: {note}",
  results_none: "Nsonaazu: ebiputabeghi ya.",
  results_latest: "Nsonaazu {session}, {semester}\nGPA {gpa}\nCGPA {cgpa}",
  results_withheld: "Nsonaazu gi ikpeazu ga-apu ozugbo i kwuchara ugwo akwukwo.",
  language_menu: "Asusu\n1 English\n2 Hausa\n3 Yoruba\n4 Igbo",
  language_set: "Menu a di ugbu a n'Igbo.",
  sms_locked:
    "Etinyere USSD PIN ezighi ezi ugboro 3 na akaunti Student Portal gi. E mechiela menu USSD ruo {time}. O bughi gi? Gbanwee USSD PIN gi na portal.",
  sms_pay_transfer:
    "Kwuo {amount} site na transfer gaa {account} {bank} tupu {deadline}. Ref {reference}. Student Portal",
  sms_pay_rrr:
    "Kwuo {amount} site na Remita RRR {rrr} n'intanet ma o bu n'ulo aku obula. Ref {reference}. Student Portal",
};
