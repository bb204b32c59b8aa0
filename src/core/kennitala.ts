// Icelandic national identity numbers (kennitala): check digit and generation of company numbers.

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2]

/** The check digit (9th digit) for the first eight digits, or undefined when none exists. */
export function checkDigit(firstEight: string): number | undefined {
  let sum = 0
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * WEIGHTS[i]
  const remainder = sum % 11
  const digit = remainder === 0 ? 0 : 11 - remainder
  return digit === 10 ? undefined : digit
}

/**
 * True for ten digits whose 9th digit is the right check digit.
 * @example isValidKennitala('5901694399') // true
 */
export function isValidKennitala(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false
  return checkDigit(value.slice(0, 8)) === Number(value[8])
}

/** True for a company's kennitala: valid, and its day is 41 to 71 (day of founding plus 40). */
export function isCompanyKennitala(value: string): boolean {
  const day = Number(value.slice(0, 2))
  return isValidKennitala(value) && day >= 41 && day <= 71
}

/**
 * A valid company kennitala from a source of random integers (`int(min, max)` inclusive).
 * @example companyKennitala((min, max) => faker.number.int({ min, max }))
 */
export function companyKennitala(int: (min: number, max: number) => number): string {
  for (;;) {
    const day = 40 + int(1, 28)
    const month = int(1, 12)
    const year = int(0, 99)
    const serial = int(20, 99)
    const firstEight = `${day}${pad(month)}${pad(year)}${serial}`
    const check = checkDigit(firstEight)
    if (check === undefined) continue
    const century = year > 30 ? 9 : 0
    return `${firstEight}${check}${century}`
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}
