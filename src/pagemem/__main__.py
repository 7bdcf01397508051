from pagemem.cli import main

main()
