print("ferry")
