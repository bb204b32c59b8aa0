module relay-mock.example/client

go 1.19
