print("soundstage")
