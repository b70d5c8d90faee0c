/**
 * The address Paystack is given for a student's payment. Paystack requires one; a student with no
 * e-mail address (decision 156) gets one under the reserved .invalid domain, which no mail
 * server delivers to, so Paystack's own receipt goes nowhere instead of to a stranger. The
 * portal's own receipt is not sent; the payment slip is on the Payments page.
 */
export function paystackEmail(student: { email: string | null; id: number }): string {
  return student.email ?? `student-${student.id}@no-email.invalid`;
}
