// Students and the bursary read times in Nigerian time whatever the server's zone is.
const COLLEGE_TIME_ZONE = "Africa/Lagos";

// One formatter for every date shown: a zone conversion through a fresh formatter (what
// dayjs's timezone plugin does on each call) cost a page of payment history ≈ 0.1 ms a row.
const collegeClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: COLLEGE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

type WallClock = {
  year: string;
  month: string;
  day: string;
  hour: number;
  minute: string;
  second: string;
};

// What was shown before for a value that is not a date (dayjs's words): a page still renders.
const NOT_A_DATE = "Invalid Date";

const MINUTE_MS = 60_000;
// The zone's offset is whole minutes, so every instant of one UTC minute reads the same down to
// the minute; the server asks for today's date on most requests, many times a minute.
let lastMinute = Number.NaN;
let lastReading: Omit<WallClock, "second"> | null = null;

function wallClock(date: string | Date): WallClock | null {
  const at = typeof date === "string" ? new Date(date) : date;
  const ms = at.getTime();
  if (Number.isNaN(ms)) return null;
  const minute = Math.floor(ms / MINUTE_MS);
  if (minute !== lastMinute || !lastReading) {
    const parts: Record<string, string> = {};
    for (const { type, value } of collegeClock.formatToParts(at)) parts[type] = value;
    lastReading = {
      year: parts.year!,
      month: parts.month!,
      day: parts.day!,
      hour: Number(parts.hour),
      minute: parts.minute!,
    };
    lastMinute = minute;
  }
  const second = String(Math.floor((ms - minute * MINUTE_MS) / 1000)).padStart(2, "0");
  return { ...lastReading, second };
}

const twelveHour = (hour: number) => ({
  hour: hour % 12 === 0 ? 12 : hour % 12,
  meridiem: hour < 12 ? "am" : "pm",
});
const twoDigits = (value: number) => String(value).padStart(2, "0");

/**
 * The college's date (YYYY-MM-DD, Africa/Lagos) at an instant: the registration window, the
 * announcements and late fees are counted in college days, whatever zone the server runs in.
 */
export function collegeDate(at: Date) {
  const t = wallClock(at);
  if (!t) throw new RangeError(`not a date: ${String(at)}`);
  return `${t.year}-${t.month}-${t.day}`;
}

/** The college's hour of the day (0 to 23, Africa/Lagos) at an instant: texts keep to waking hours. */
export function collegeHour(at: Date) {
  const t = wallClock(at);
  if (!t) throw new RangeError(`not a date: ${String(at)}`);
  return t.hour;
}

/** Payment history: "05-09-2024, 2:07:09 pm" (spec: DD-MM-YYYY, h:mm:ss a). */
export function formatHistoryDate(date: string | Date) {
  const t = wallClock(date);
  if (!t) return NOT_A_DATE;
  const { hour, meridiem } = twelveHour(t.hour);
  return `${t.day}-${t.month}-${t.year}, ${hour}:${t.minute}:${t.second} ${meridiem}`;
}

/** Slips: "05/09/2024 14:07" (spec: DD/MM/YYYY hh:mm). */
export function formatSlipDate(date: string | Date) {
  const t = wallClock(date);
  if (!t) return NOT_A_DATE;
  return `${t.day}/${t.month}/${t.year} ${twoDigits(t.hour)}:${t.minute}`;
}

/** Until when a transfer account is open: "2:07 pm, 05-09-2024" (Nigerian time). */
export function formatDeadline(date: string | Date) {
  const t = wallClock(date);
  if (!t) return NOT_A_DATE;
  const { hour, meridiem } = twelveHour(t.hour);
  return `${hour}:${t.minute} ${meridiem}, ${t.day}-${t.month}-${t.year}`;
}

/** A time of day in Nigerian time, 24-hour: "14:07" (the USSD menu's lock, an SMS's deadline). */
export function formatCollegeTime(date: string | Date) {
  const t = wallClock(date);
  if (!t) return NOT_A_DATE;
  return `${twoDigits(t.hour)}:${t.minute}`;
}
