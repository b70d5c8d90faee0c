// Apart from the zod contracts, so the complaint form's script stays free of zod.

/** The spec's success sentence ("Successful! Complaint has been sent"), then the ticket number. */
export const sentWithTicket = (sent: string, ticket: string) => `${sent}. Your ticket number is ${ticket}.`;
