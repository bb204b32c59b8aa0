import json
answer = json.loads('{"items": []}')
try:
    print(answer["id"])
except KeyError as error:
    raise RuntimeError("the answer has no id") from error
