const answer = JSON.parse('{"items": null}')
console.log(answer.items.length)
