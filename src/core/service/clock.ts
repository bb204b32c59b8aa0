// The journal's clock: every entry is dated, so dating must cost next to nothing. Date's
// toISOString builds the whole string from the calendar each time; here the calendar part
// (`YYYY-MM-DDTHH:MM:`) is built once a minute and the seconds and milliseconds are appended.

let minuteMs = Number.NaN
let minuteIso = ''
let lastMs = Number.NaN
let lastIso = ''

/**
 * `new Date(ms).toISOString()`, for a time in milliseconds since the epoch that Date can hold (a whole number, as
 * Date.now() gives), built from the last minute's text when it is the same minute.
 * @example isoOf(Date.UTC(2026, 10, 23, 17, 5, 9, 42)) // '2026-11-23T17:05:09.042Z'
 */
export function isoOf(ms: number): string {
  if (ms === lastMs) return lastIso
  const intoMinute = ((ms % 60_000) + 60_000) % 60_000
  const minute = ms - intoMinute
  if (minute !== minuteMs) {
    minuteMs = minute
    minuteIso = new Date(minute).toISOString().slice(0, -'00.000Z'.length)
  }
  const seconds = Math.floor(intoMinute / 1000)
  const millis = intoMinute % 1000
  lastMs = ms
  lastIso = `${minuteIso}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
  return lastIso
}
