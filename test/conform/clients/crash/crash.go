package main

import "fmt"

func main() {
	items := []string{}
	fmt.Println(items[len(items)])
}
