// Dies on a lookup whose connection is refused (nothing listens on port 4): Node prints `TypeError: fetch
// failed`, its stack, and the cause that says why under `[cause]:`.
const response = await fetch('http://127.0.0.1:4/rental-companies')
console.log(await response.json())
