from puzzlesearch.cli import main

main()
