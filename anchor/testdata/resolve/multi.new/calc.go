package calc

import "fmt"

func Add(a, b int) int {
	// fixed sign
	return a + b
}

func Sub(a, b int) int {
	return a - b
}

// Mul multiplies.
func Mul(a, b int) int {
	if a == 0 {
		return 0
	}
	return a * b
}

func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, fmt.Errorf("divide by zero")
	}

	return a / b, nil
}

func Print(x int) {
	fmt.Println(x)
}

func Mod(a, b int) int {
	if a == 0 {
		return 0
	}
	return a % b
}
