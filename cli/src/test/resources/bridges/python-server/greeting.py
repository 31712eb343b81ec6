def greet(who):
    return "hello " + who
