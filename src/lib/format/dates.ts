import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";
import timezone from "dayjs/plugin/timezone.js";

dayjs.extend(utc);
dayjs.extend(timezone);

// Students and the bursary read times in Nigerian time whatever the server's zone is.
const COLLEGE_TIME_ZONE = "Africa/Lagos";

const inLagos = (date: string | Date) => dayjs(date).tz(COLLEGE_TIME_ZONE);

/** Payment history: "05-09-2024, 2:07:09 pm" (spec: DD-MM-YYYY, h:mm:ss a). */
export const formatHistoryDate = (date: string | Date) => inLagos(date).format("DD-MM-YYYY, h:mm:ss a");

/** Slips: "05/09/2024 14:07" (spec: DD/MM/YYYY hh:mm). */
export const formatSlipDate = (date: string | Date) => inLagos(date).format("DD/MM/YYYY HH:mm");

/** Until when a transfer account is open: "2:07 pm, 05-09-2024" (Nigerian time). */
export const formatDeadline = (date: string | Date) => inLagos(date).format("h:mm a, DD-MM-YYYY");
