/**
 * The USSD menu's fixed texts in English: every other language has the same keys and the same
 * `{placeholders}` (languages.test.ts). Amounts, references, course codes and an adviser's note
 * stay as the portal holds them. Every text is plain GSM-7 (no tone marks, no ₦): handsets show
 * USSD screens in that alphabet, and a screen holds at most 182 characters (decision 202).
 */
export const en = {
  ask_pin: "Student Portal\nEnter your 4-digit USSD PIN:",
  no_pin:
    "To use this menu, sign in to the Student Portal and set a USSD PIN on your Biodata page.",
  pin_is_4_digits: "A USSD PIN is 4 digits. Dial again.",
  wrong_pin: "Wrong PIN. Tries left: {tries}. Dial again.",
  locked: "Too many wrong PINs. This menu is locked for your number until {time}.",
  session_over: "This session has ended. Dial again.",
  main_menu:
    "Student Portal\n1 Fees\n2 Pay fees\n3 Course registration\n4 Results\n5 Language\n0 Exit",
  not_on_menu: "Not on the menu. Try again.",
  back: "0 Back",
  goodbye: "Goodbye.",
  no_session: "No session is open yet. Check again later.",
  fees_status: "Fees {session}, {level} level\nPaid: {paid}\nStill to pay: {owed}",
  fees_no_fee: "No school fee is set for you in {session} yet. Ask the bursary.",
  latest_payment: "Last payment: {amount}, {state}",
  payment_paid: "paid",
  payment_waiting: "waiting",
  payment_not_paid: "not paid",
  pay_choose: "Pay fees {session}. Choose:",
  option_full: "Full",
  option_part: "First installment",
  option_second_installment: "Second installment",
  pay_nothing_to_pay: "Your fees for {session} are fully paid. Nothing to pay.",
  pay_sent: "We have sent how to pay {amount} to this phone by SMS. Ref {reference}",
  pay_not_started: "We could not start the payment. Try again later or use the portal.",
  registration_none: "No courses registered for {session} yet.",
  registration_semester: "{semester}: {units} units, {state}",
  first_semester: "1st semester",
  second_semester: "2nd semester",
  registration_approved: "approved",
  registration_waiting: "waiting for your adviser",
  registration_returned: "sent back: {note}",
  results_none: "Results: not published yet.",
  results_latest: "Results {session}, {semester}\nGPA {gpa}\nCGPA {cgpa}",
  results_withheld: "Your latest results show once your fees are paid.",
  language_menu: "Language\n1 English\n2 Hausa\n3 Yoruba\n4 Igbo",
  language_set: "The menu is now in English.",
  // What the menu texts, in the same language: one 160-character GSM-7 segment each at the
  // longest values (sms-texts.test.ts).
  sms_locked:
    "Three wrong USSD PINs were entered for your Student Portal account. The USSD menu is locked until {time}. Not you? Change your USSD PIN on the portal.",
  sms_pay_transfer:
    "Pay {amount} by transfer to {account} {bank} before {deadline}. Ref {reference}. Student Portal",
  sms_pay_rrr:
    "Pay {amount} with Remita RRR {rrr} online or at any bank. Ref {reference}. Student Portal",
} as const;

export type UssdTextKey = keyof typeof en;
export type UssdTexts = Record<UssdTextKey, string>;
