print("drumdub")
